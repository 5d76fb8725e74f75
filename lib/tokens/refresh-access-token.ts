import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import type { ActiveSession } from "../sessions/resolve-session";
import { mintAccessToken } from "./access-token";
import { assertSessionMayGetTokens } from "./assert-session-may-get-tokens";
import type { AccessToken } from "./schemas";

/**
 * A fresh access token for the caller's live session. `azp` is the browser Origin
 * when there is one; the route wrapper has already refused Origins the environment
 * does not allow, so the claim never names a foreign site.
 */
export async function refreshAccessToken(
  db: Database,
  environment: EnvironmentContext,
  active: ActiveSession,
  request: Request,
): Promise<AccessToken> {
  await assertSessionMayGetTokens(db, environment, active);
  const minted = await mintAccessToken(db, environment, active.session, { origin: request.headers.get("origin") });
  return { accessToken: minted.token, expiresAt: minted.expiresAt };
}
