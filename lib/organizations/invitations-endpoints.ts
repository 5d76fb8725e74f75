import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { respondWithEstablishment } from "../sessions/respond-with-session";
import { acceptInvitation, inviteToOrganization, listInvitations, resendInvitation, revokeInvitation } from "./invitations";
import {
  acceptOrganizationInvitationOperation,
  inviteToOrganizationOperation,
  listOrganizationInvitationsOperation,
  resendOrganizationInvitationOperation,
  revokeOrganizationInvitationOperation,
  signUpFromTicketOperation,
} from "./invitations-operations";
import { signUpFromTicket } from "./invitations-signup";

/*
 * The Client API invitation operations with their implementations: served by the
 * route kit under /_svc and invoked by the hosted organization pages.
 */

export const inviteToOrganizationEndpoint = endpoint(inviteToOrganizationOperation, (input) =>
  inviteToOrganization(getDb(), input.environment, input.params.organizationId, input.body, { actor: input.actor, caller: input.caller }, input.context.host),
);

export const listOrganizationInvitationsEndpoint = endpoint(listOrganizationInvitationsOperation, ({ environment, params, query }) =>
  listInvitations(getDb(), environment.id, params.organizationId, query),
);

export const resendOrganizationInvitationEndpoint = endpoint(resendOrganizationInvitationOperation, (input) =>
  resendInvitation(
    getDb(),
    input.environment,
    input.params.organizationId,
    input.params.invitationId,
    { actor: input.actor, caller: input.caller },
    input.context.host,
  ),
);

export const revokeOrganizationInvitationEndpoint = endpoint(revokeOrganizationInvitationOperation, (input) =>
  revokeInvitation(getDb(), input.environment, input.params.organizationId, input.params.invitationId, { actor: input.actor, caller: input.caller }),
);

export const acceptOrganizationInvitationEndpoint = endpoint(acceptOrganizationInvitationOperation, ({ environment, session, body, actor }) =>
  acceptInvitation(getDb(), environment, body.token, session.user, actor),
);

export const signUpFromTicketEndpoint = endpoint(signUpFromTicketOperation, async ({ environment, body, query, context, effects }) =>
  respondWithEstablishment(effects, await signUpFromTicket(getDb(), environment, body, context), { isNative: query._is_native }),
);
