import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { resendVerificationEmail } from "@/lib/users/email-verification";
import { resendVerificationOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/email-verification/resend — email a link that verifies the primary address
export const POST = sessionRoute(resendVerificationOperation, async ({ environment, session, request }) => {
  await enforceRateLimit(getDb(), environment, "emailSends", request, session.user.id);
  return resendVerificationEmail(getDb(), environment, session);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
