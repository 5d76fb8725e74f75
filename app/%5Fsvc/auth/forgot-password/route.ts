import { getDb } from "@/db/client";
import { forgotPasswordOperation } from "@/lib/auth/operations";
import { forgotPassword } from "@/lib/auth/password-reset";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/forgot-password — email a reset code (always 200)
export const POST = clientRoute(forgotPasswordOperation, ({ environment, body, request, requestId }) =>
  forgotPassword(getDb(), environment, body.email, request, requestId),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
