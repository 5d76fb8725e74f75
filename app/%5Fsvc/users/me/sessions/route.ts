import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { listMySessions } from "@/lib/sessions/my-sessions";
import { listMySessionsOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/sessions — the user's active sessions
export const GET = sessionRoute(listMySessionsOperation, ({ session }) => listMySessions(getDb(), session));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
