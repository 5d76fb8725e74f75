import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { resendEmailAddressVerification } from "@/lib/users/email-addresses";
import { resendEmailAddressOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/email-addresses/{id}/resend — re-send the verification link
export const POST = sessionRoute(resendEmailAddressOperation, async ({ environment, session, params, request }) => {
  await enforceRateLimit(getDb(), environment, "emailSends", request, session.user.id);
  return resendEmailAddressVerification(getDb(), environment, session, params.emailAddressId);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
