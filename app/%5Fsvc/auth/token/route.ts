import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { refreshTokenOperation } from "@/lib/tokens/operations";
import { refreshAccessToken } from "@/lib/tokens/refresh-access-token";

// POST /_svc/auth/token — a fresh access token for the current session
export const POST = sessionRoute(refreshTokenOperation, ({ environment, session, context }) =>
  refreshAccessToken(getDb(), environment, session, context),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
