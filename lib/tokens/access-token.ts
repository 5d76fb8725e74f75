import { SignJWT, type JWTPayload } from "jose";
import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { activeOrganizationClaims } from "../organizations/active-organization";
import { actorClaim } from "../sessions/impersonator";
import type { SessionRow } from "../sessions/serialize";
import { issuerFor } from "./issuer";
import { currentSigningKey } from "./signing-key-store";

export interface MintedToken {
  token: string;
  expiresAt: string;
}

/**
 * Signs a short-lived access token for a session (CONTRACT §3): iss, sub, sid, azp
 * (the browser Origin, when present), iat, nbf, exp, env, the org claims while the
 * session's active organization is one the user is still a member of (re-read at
 * every mint) and organizations are on, `act: {sub}` (RFC 8693 §4.1) when someone
 * else acts in the session (an impersonation; then `exp` never passes the session's
 * end), plus any extra claims, which can override none of these.
 */
export async function mintAccessToken(
  db: Database,
  environment: EnvironmentContext,
  session: Pick<SessionRow, "id" | "userId" | "activeOrganizationId" | "impersonatorType" | "impersonatorId" | "expiresAt">,
  options: { origin?: string | null; lifetimeSeconds?: number; claims?: JWTPayload } = {},
): Promise<MintedToken> {
  const [key, organization] = await Promise.all([
    currentSigningKey(db, environment.id),
    // A session row read in this request with no active organization needs no lookup;
    // with organizations turned off the environment's tokens carry none (as the boot probe lists none).
    session.activeOrganizationId && environment.settings.organizations.enabled ? activeOrganizationClaims(db, environment.id, session.id) : null,
  ]);
  const now = Math.floor(Date.now() / 1000);
  const lifetime = options.lifetimeSeconds ?? environment.settings.sessions.tokenLifetimeSeconds;
  const act = actorClaim(session);
  // An impersonation lives at most an hour: none of its tokens (a template's may ask for a
  // day) outlives the session, or the operator would keep acting as the user after it.
  const exp = act ? Math.min(now + lifetime, Math.floor(session.expiresAt.getTime() / 1000)) : now + lifetime;
  const token = await new SignJWT({
    ...options.claims,
    ...organization,
    ...(act ? { act } : {}),
    sid: session.id,
    env: environment.id,
    ...(options.origin ? { azp: options.origin } : {}),
  })
    .setProtectedHeader({ alg: key.algorithm, kid: key.kid, typ: "JWT" })
    .setIssuer(issuerFor(environment))
    .setSubject(session.userId)
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(exp)
    .sign(key.privateKey);
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}
