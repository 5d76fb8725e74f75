import { getDb } from "@/db/client";
import { signUpOperation } from "@/lib/auth/operations";
import { beginSignUp } from "@/lib/auth/sign-up";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/signup — begin sign-up: email a 6-digit code
export const POST = clientRoute(signUpOperation, ({ environment, body, request }) =>
  beginSignUp(getDb(), environment, body, request),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
