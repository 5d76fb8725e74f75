import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { requestAccountDeletion } from "@/lib/users/account-deletion";
import { requestDeletionOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/delete/request — type-to-confirm, then a confirmation link by email
export const POST = sessionRoute(requestDeletionOperation, async ({ environment, session, body, request }) => {
  await enforceRateLimit(getDb(), environment, "emailSends", request, session.user.id);
  return requestAccountDeletion(getDb(), environment, session, body.confirmation);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
