import { getDb } from "@/db/client";
import { reverifyOperation } from "@/lib/auth/operations";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { reverifySession } from "@/lib/sessions/reverification";

// POST /_svc/auth/reverify — prove the password again for sensitive operations
export const POST = sessionRoute(reverifyOperation, async ({ environment, session, body, request, actor }) => {
  await enforceRateLimit(getDb(), environment, "signIn", request, session.user.id);
  return reverifySession(getDb(), environment, session, body.password, actor);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
