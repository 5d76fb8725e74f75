import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import type { ActiveSession } from "../sessions/resolve-session";
import { mintAccessToken } from "./access-token";
import type { RequestContext } from "../operation/request-context";
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
  context: RequestContext,
): Promise<AccessToken> {
  const minted = await mintAccessToken(db, environment, active.session, { origin: context.origin });
  return { accessToken: minted.token, expiresAt: minted.expiresAt };
}
