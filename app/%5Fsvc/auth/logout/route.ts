import { getDb } from "@/db/client";
import { logoutOperation } from "@/lib/auth/operations";
import { signOut } from "@/lib/auth/sign-out";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// POST /_svc/auth/logout — revoke this session and clear its cookies
export const POST = clientRoute(logoutOperation, async ({ environment, session, request, responseHeaders }) => {
  for (const cookie of await signOut(getDb(), environment, session, request)) responseHeaders.append("set-cookie", cookie);
  return { status: "signed_out" };
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
