import { getDb } from "@/db/client";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { revokeOtherSessions } from "@/lib/sessions/my-sessions";
import { revokeOtherSessionsOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/sessions/revoke-others — sign out everywhere else
export const POST = sessionRoute(revokeOtherSessionsOperation, ({ session, actor }) => revokeOtherSessions(getDb(), session, actor));

export const OPTIONS = clientPreflight;
