import { getDb } from "@/db/client";
import { changePassword, passwordStatus } from "@/lib/auth/change-password";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { changePasswordOperation, getPasswordStatusOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/password — whether a password is set
export const GET = sessionRoute(getPasswordStatusOperation, async ({ session }) => passwordStatus(session));

// POST /_svc/users/me/password — change or set the password
export const POST = sessionRoute(changePasswordOperation, async ({ environment, session, body, request, actor }) => {
  // The current password is a credential: guesses through a stolen session are throttled too.
  await enforceRateLimit(getDb(), environment, "signIn", request, session.user.id);
  return changePassword(getDb(), environment, session, body, actor);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
