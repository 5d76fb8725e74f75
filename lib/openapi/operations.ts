import * as auditOperations from "../audit/operations";
import * as authOperations from "../auth/operations";
import * as environmentOperations from "../environments/operations";
import type { AuthLevel, Operation } from "../operation/operation";
import * as identityOperations from "../identities/operations";
import * as impersonationOperations from "../impersonation/operations";
import * as mfaOperations from "../mfa/operations";
import * as oauthFlowOperations from "../oauth/flow-operations";
import * as oauthProviderOperations from "../oauth/provider-operations";
import * as activeOrganizationOperations from "../organizations/active-organization-operations";
import * as invitationOperations from "../organizations/invitations-operations";
import * as organizationOperations from "../organizations/operations";
import * as organizationServerOperations from "../organizations/server-operations";
import * as passkeyOperations from "../passkeys/operations";
import * as sessionOperations from "../sessions/operations";
import * as ticketOperations from "../tickets/operations";
import * as jwtTemplateOperations from "../tokens/jwt-template-operations";
import * as tokenOperations from "../tokens/operations";
import * as meOperations from "../users/me-operations";
import * as userOperations from "../users/operations";

type AnyOperation = Operation<never, never, never, never, AuthLevel>;

/** Every documented operation; a route's operation that is missing here is missing from the docs. */
export const ALL_OPERATIONS: AnyOperation[] = [
  ...Object.values(userOperations),
  ...Object.values(sessionOperations),
  ...Object.values(environmentOperations),
  ...Object.values(tokenOperations),
  ...Object.values(jwtTemplateOperations),
  ...Object.values(authOperations),
  ...Object.values(meOperations),
  ...Object.values(mfaOperations),
  ...Object.values(passkeyOperations),
  ...Object.values(oauthFlowOperations),
  ...Object.values(identityOperations),
  ...Object.values(oauthProviderOperations),
  ...Object.values(ticketOperations),
  ...Object.values(impersonationOperations),
  ...Object.values(activeOrganizationOperations),
  ...Object.values(invitationOperations),
  ...Object.values(organizationOperations),
  ...Object.values(organizationServerOperations),
  ...Object.values(auditOperations),
] as unknown as AnyOperation[];
