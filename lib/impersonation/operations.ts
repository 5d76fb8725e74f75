import { nativeQuery, sessionOpenedSchema } from "../auth/schemas";
import { defineOperation } from "../operation/operation";
import { impersonateBody, impersonationTokenBody, impersonationTokenSchema } from "./schemas";

/** What an impersonation session cannot do, said once for both descriptions. */
const LIMITS =
  "The session lives at most one hour (less when the environment's session lifetime is shorter), never counts as a recent sign-in, and is refused with 403 impersonation_forbidden whatever only the user may do: change the password, email addresses, second factors, passkeys or connected accounts, end other sessions, request deletion or a data export, accept legal terms, reverify. Every event written during it names the impersonator as `on_behalf_of`; its start (`user.impersonation_started`) and end (`user.impersonation_ended`, on sign-out or any revocation) are audited.";

export const createImpersonationTokenOperation = defineOperation({
  operationId: "createImpersonationToken",
  method: "post",
  path: "/api/server/v1/impersonation-tokens",
  summary: "Mint a one-time token to act as a user",
  description: `Returns a token that opens a session as the user once, within 10 minutes, through the Client API's POST /_svc/auth/session/impersonate (a support tool: see what the user sees). Stored only as its hash. \`actorId\` names who acts: it becomes \`act.sub\` in the session's access tokens and the boot probe's \`actor.sub\`; a dashboard operator must name themselves (403 forbidden otherwise). Banned users are refused (403 user_banned), unknown and deleted ones are 404, a user of another environment is 403 environment_mismatch. Revoking all of the user's sessions (a ban, a password change, sign out everywhere) voids tokens not yet redeemed. Recorded as \`user.impersonation_token_created\` with \`actorId\` and \`reason\`. ${LIMITS}`,
  tags: ["Impersonation"],
  auth: "server",
  operatorPermission: "revealSecrets", // the token acts as the user
  body: impersonationTokenBody,
  response: { status: 201, description: "The token, shown this once.", schema: impersonationTokenSchema },
  errors: ["invalid_request", "unauthorized", "forbidden", "environment_mismatch", "resource_not_found", "user_banned"],
});

export const impersonateOperation = defineOperation({
  operationId: "impersonate",
  method: "post",
  path: "/_svc/auth/session/impersonate",
  summary: "Open an impersonation session with a one-time token",
  description: `Redeems a token from POST /api/server/v1/impersonation-tokens and answers like login: sets the session cookie and returns \`accessToken\`, \`session\` (with \`actor: {sub}\`) and \`user\`; \`_is_native=true\` also returns \`sessionToken\`. No second factor is asked: it is the impersonator's act, not the user's sign-in. A session is PENDING like the user's own when one of their gates is open. Each token opens one session, also under concurrent requests; a used, expired or unknown token, or one minted before all the user's sessions were revoked, or for a user deleted since, is 400 invalid_code; a banned user 403 user_banned. Attempts count against \`rateLimits.signIn\` per IP. ${LIMITS}`,
  tags: ["Client: session"],
  auth: "publishableKey",
  rateLimits: [{ action: "signIn" }],
  query: nativeQuery,
  body: impersonateBody,
  response: { status: 200, description: "The impersonation session.", schema: sessionOpenedSchema },
  errors: ["environment_not_found", "origin_not_allowed", "invalid_request", "invalid_code", "user_banned", "rate_limited"],
});
