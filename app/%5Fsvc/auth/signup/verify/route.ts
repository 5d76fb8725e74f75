import { getDb } from "@/db/client";
import { respondWithSession } from "@/lib/auth/establish-session";
import { verifySignUpOperation } from "@/lib/auth/operations";
import { verifySignUp } from "@/lib/auth/sign-up";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/signup/verify — verify the code: creates the user and the session
export const POST = clientRoute(verifySignUpOperation, async ({ environment, body, query, request, responseHeaders }) =>
  respondWithSession(responseHeaders, await verifySignUp(getDb(), environment, body, request, { isNative: query._is_native })),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
