import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { revokeMySession } from "@/lib/sessions/my-sessions";
import { revokeMySessionOperation } from "@/lib/users/me-operations";

// DELETE /_svc/users/me/sessions/{sessionId} — sign out another device
export const DELETE = sessionRoute(revokeMySessionOperation, ({ session, params, actor }) =>
  revokeMySession(getDb(), session, params.sessionId, actor),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH } = unsupportedMethods({ DELETE, OPTIONS });
