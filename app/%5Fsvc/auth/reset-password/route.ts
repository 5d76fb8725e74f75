import { getDb } from "@/db/client";
import { respondWithSession } from "@/lib/auth/establish-session";
import { resetPasswordOperation } from "@/lib/auth/operations";
import { resetPassword } from "@/lib/auth/password-reset";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/reset-password — new password with the emailed code; signs in afresh
export const POST = clientRoute(resetPasswordOperation, async ({ environment, body, query, request, requestId, responseHeaders }) =>
  respondWithSession(
    responseHeaders,
    await resetPassword(getDb(), environment, body, request, { isNative: query._is_native, requestId }),
  ),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
