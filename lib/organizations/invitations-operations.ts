import { nativeQuery, sessionEstablishedSchema } from "../auth/schemas";
import { defineOperation } from "../operation/operation";
import {
  acceptInvitationBody,
  invitationPageSchema,
  invitationParams,
  invitationSummarySchema,
  inviteBody,
  listInvitationsQuery,
  organizationInvitationSchema,
  organizationParams,
  signUpFromTicketBody,
} from "./invitations-schemas";
import { myOrganizationSchema } from "./schemas";

const tags = ["Client: organizations"];
const serverTags = ["Organizations"];
const MANAGE = { param: "organizationId", permission: "org:invitations:manage" } as const;
const IN_ORGANIZATION = ["invalid_request", "unauthorized", "forbidden", "session_pending", "resource_not_found"] as const;
const LIFETIME = "The token is stored hashed and works for 7 days from its last send.";
// Why two secrets: lib/organizations/invitation-secrets.ts.
const SECRETS =
  "The answer's `token` lets an existing account whose verified address is the invited one accept (`POST /_svc/organizations/invitations/accept`), for apps that send their own emails; it cannot create an account. Only the emailed link carries the mail ticket, which can also create the account (`POST /_svc/auth/signup/ticket`); the ticket is never in any answer.";

export const inviteToOrganizationOperation = defineOperation({
  operationId: "inviteToOrganization",
  method: "post",
  path: "/_svc/organizations/{organizationId}/invitations",
  summary: "Invite to an organization",
  description: `Needs the \`org:invitations:manage\` permission and a role within the inviter's reach: only an owner invites an owner, from a recent sign-in (403 reverification_required otherwise), and below owner only roles whose permissions are all among the inviter's own (403). Emails the invitation (inviter, organization, role, expiry, a link to the hosted page /invitations/accept). ${SECRETS} ${LIFETIME} Counts against \`rateLimits.organizationInvitations\` per organization and per IP.`,
  tags,
  auth: "session",
  organization: MANAGE,
  rateLimits: [{ action: "organizationInvitations" }],
  params: organizationParams,
  body: inviteBody,
  response: { status: 200, description: "The invitation, with its token this once.", schema: organizationInvitationSchema },
  errors: [...IN_ORGANIZATION, "reverification_required", "rate_limited", "email_unavailable"],
});

export const listOrganizationInvitationsOperation = defineOperation({
  operationId: "listOrganizationInvitations",
  method: "get",
  path: "/_svc/organizations/{organizationId}/invitations",
  summary: "List an organization's invitations",
  description: "Needs the `org:invitations:manage` permission. Newest first, by keyset (`limit`, `cursor`); `status` picks pending (default), accepted or revoked ones. Tokens are never listed.",
  tags,
  auth: "session",
  organization: MANAGE,
  params: organizationParams,
  query: listInvitationsQuery,
  response: { status: 200, description: "One page of invitations.", schema: invitationPageSchema },
  errors: [...IN_ORGANIZATION],
});

export const resendOrganizationInvitationOperation = defineOperation({
  operationId: "resendOrganizationInvitation",
  method: "post",
  path: "/_svc/organizations/{organizationId}/invitations/{invitationId}/resend",
  summary: "Resend an invitation",
  description: `Needs the \`org:invitations:manage\` permission and the invitation's role within the caller's reach (an owner invitation: an owner, from a recent sign-in, else 403 reverification_required). Emails a new link and answers a new token; the previous link and token stop working at once. ${SECRETS} ${LIFETIME}`,
  tags,
  auth: "session",
  organization: MANAGE,
  rateLimits: [{ action: "organizationInvitations" }],
  params: invitationParams,
  response: { status: 200, description: "The invitation, with its new token this once.", schema: organizationInvitationSchema },
  errors: [...IN_ORGANIZATION, "reverification_required", "invitation_revoked", "invitation_already_accepted", "rate_limited", "email_unavailable"],
});

export const revokeOrganizationInvitationOperation = defineOperation({
  operationId: "revokeOrganizationInvitation",
  method: "delete",
  path: "/_svc/organizations/{organizationId}/invitations/{invitationId}",
  summary: "Revoke an invitation",
  description: "Needs the `org:invitations:manage` permission and the invitation's role within the caller's reach (an owner invitation: an owner). Its link then answers 410 invitation_revoked. Idempotent.",
  tags,
  auth: "session",
  organization: MANAGE,
  params: invitationParams,
  response: { status: 200, description: "The revoked invitation.", schema: invitationSummarySchema },
  errors: [...IN_ORGANIZATION, "invitation_already_accepted"],
});

export const acceptOrganizationInvitationOperation = defineOperation({
  operationId: "acceptOrganizationInvitation",
  method: "post",
  path: "/_svc/organizations/invitations/accept",
  summary: "Accept an invitation",
  description:
    "`token` is the invitation's API token (from the invite or resend answer) or the mail ticket from the emailed link. The signed-in user joins the organization with the invitation's role; one of their verified addresses must be the invited one (else 403 invitation_wrong_account, whose `invitedEmail` names the address to switch to). An invitation is accepted once, also under concurrent accepts. Unknown, superseded (resent) or expired token: 400 invalid_code; revoked (also when its inviter was removed, demoted, banned or deleted, or a new role set leaves their role unable to offer it: the accept revokes it then, for good): 410 invitation_revoked; accepted: 409 invitation_already_accepted.",
  tags,
  auth: "session",
  organization: {},
  body: acceptInvitationBody,
  response: { status: 200, description: "The caller's new membership.", schema: myOrganizationSchema },
  errors: [
    "invalid_request",
    "unauthorized",
    "forbidden",
    "session_pending",
    "invalid_code",
    "invitation_wrong_account",
    "invitation_revoked",
    "invitation_already_accepted",
    "already_member",
    "organization_limit_reached",
  ],
});

export const signUpFromTicketOperation = defineOperation({
  operationId: "signUpFromTicket",
  method: "post",
  path: "/_svc/auth/signup/ticket",
  summary: "Sign up from an invitation ticket",
  description:
    "Only the mail ticket from the emailed link (its `token` parameter) proves the address; the API token of the invite answer is refused like an unknown ticket, since the inviter holds it. Unknown, superseded or expired ticket: 400 invalid_code; revoked (as for accept, also when its inviter can no longer offer the role; no user is created): 410 invitation_revoked; accepted: 409 invitation_already_accepted. The user is created verified, joins the organization with the invitation's role and is signed in (session cookie, as sign-up), even where public sign-up is closed. An address that already has an account: 409 identifier_exists (sign in and accept instead). Counts against `rateLimits.signUp` per IP.",
  tags: ["Client: sign-up and sign-in"],
  auth: "publishableKey",
  rateLimits: [{ action: "signUp" }],
  query: nativeQuery,
  body: signUpFromTicketBody,
  response: { status: 200, description: "The new session.", schema: sessionEstablishedSchema },
  errors: [
    "environment_not_found",
    "origin_not_allowed",
    "invalid_request",
    "password_too_weak",
    "forbidden",
    "invalid_code",
    "invitation_revoked",
    "invitation_already_accepted",
    "identifier_exists",
    "organization_limit_reached",
    "rate_limited",
  ],
});

export const serverInviteToOrganizationOperation = defineOperation({
  operationId: "serverInviteToOrganization",
  method: "post",
  path: "/api/server/v1/organizations/{organizationId}/invitations",
  summary: "Invite to an organization",
  description: `Invites an address with any role of the set (the back-end is trusted with owner invitations) and emails the link, like the Client API. ${SECRETS} ${LIFETIME}`,
  tags: serverTags,
  auth: "server",
  operatorPermission: "revealSecrets", // answers with the invitation token, once
  params: organizationParams,
  body: inviteBody,
  response: { status: 201, description: "The invitation, with its token this once.", schema: organizationInvitationSchema },
  errors: ["invalid_request", "unauthorized", "resource_not_found", "rate_limited", "email_unavailable"],
});

export const serverListInvitationsOperation = defineOperation({
  operationId: "serverListOrganizationInvitations",
  method: "get",
  path: "/api/server/v1/organizations/{organizationId}/invitations",
  summary: "List an organization's invitations",
  description: "Newest first, by keyset (`limit`, `cursor`); `status` picks pending (default), accepted or revoked ones. Tokens are never listed.",
  tags: serverTags,
  auth: "server",
  operatorPermission: "read",
  params: organizationParams,
  query: listInvitationsQuery,
  response: { status: 200, description: "One page of invitations.", schema: invitationPageSchema },
  errors: ["invalid_request", "unauthorized", "resource_not_found"],
});

export const serverResendInvitationOperation = defineOperation({
  operationId: "serverResendOrganizationInvitation",
  method: "post",
  path: "/api/server/v1/organizations/{organizationId}/invitations/{invitationId}/resend",
  summary: "Resend an invitation",
  description: `Emails a new link, like the Client API; the previous one stops working at once. ${LIFETIME} Counts against \`rateLimits.organizationInvitations\` per organization.`,
  tags: serverTags,
  auth: "server",
  operatorPermission: "revealSecrets", // answers with the new invitation token, once
  params: invitationParams,
  response: { status: 200, description: "The invitation, with its new token this once.", schema: organizationInvitationSchema },
  errors: ["invalid_request", "unauthorized", "resource_not_found", "invitation_revoked", "invitation_already_accepted", "rate_limited", "email_unavailable"],
});

export const serverRevokeInvitationOperation = defineOperation({
  operationId: "serverRevokeOrganizationInvitation",
  method: "delete",
  path: "/api/server/v1/organizations/{organizationId}/invitations/{invitationId}",
  summary: "Revoke an invitation",
  description: "Its link then answers 410 invitation_revoked. Idempotent; an accepted invitation is 409 invitation_already_accepted.",
  tags: serverTags,
  auth: "server",
  operatorPermission: "write",
  params: invitationParams,
  response: { status: 200, description: "The revoked invitation.", schema: invitationSummarySchema },
  errors: ["invalid_request", "unauthorized", "resource_not_found", "invitation_already_accepted"],
});
