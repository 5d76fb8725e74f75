import { getDb } from "@/db/client";
import { resendSignUpOperation } from "@/lib/auth/operations";
import { resendSignUpCode } from "@/lib/auth/sign-up";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/signup/resend — email a new sign-up code
export const POST = clientRoute(resendSignUpOperation, ({ environment, body, request }) =>
  resendSignUpCode(getDb(), environment, body.token, request),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
