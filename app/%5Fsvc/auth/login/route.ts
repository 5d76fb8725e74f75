import { getDb } from "@/db/client";
import { respondWithSession } from "@/lib/auth/establish-session";
import { loginOperation } from "@/lib/auth/operations";
import { signIn } from "@/lib/auth/sign-in";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/login — sign in with email and password
export const POST = clientRoute(loginOperation, async ({ environment, body, query, request, responseHeaders }) =>
  respondWithSession(responseHeaders, await signIn(getDb(), environment, body, request, { isNative: query._is_native })),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
