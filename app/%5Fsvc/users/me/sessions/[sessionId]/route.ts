import { getDb } from "@/db/client";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { revokeMySession } from "@/lib/sessions/my-sessions";
import { revokeMySessionOperation } from "@/lib/users/me-operations";

// DELETE /_svc/users/me/sessions/{sessionId} — sign out another device
export const DELETE = sessionRoute(revokeMySessionOperation, ({ session, params, actor }) =>
  revokeMySession(getDb(), session, params.sessionId, actor),
);

export const OPTIONS = clientPreflight;
