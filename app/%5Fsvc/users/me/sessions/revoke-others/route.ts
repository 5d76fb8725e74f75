import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { revokeOtherSessions } from "@/lib/sessions/my-sessions";
import { revokeOtherSessionsOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/sessions/revoke-others — sign out everywhere else
export const POST = sessionRoute(revokeOtherSessionsOperation, ({ session, actor }) => revokeOtherSessions(getDb(), session, actor));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
