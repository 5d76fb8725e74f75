import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import { isPlainObject } from "../json/deep-merge";
import type { ActiveSession } from "../sessions/resolve-session";
import { mintAccessToken } from "./access-token";
import type { RequestContext } from "../operation/request-context";
import { findJwtTemplateByName } from "./jwt-templates";
import type { AccessToken } from "./schemas";
import { shortcodeContext, resolveShortcodes } from "./shortcodes";
import { claimsBytes, MAX_RESOLVED_CLAIMS_BYTES, withoutReservedClaims } from "./template-claims";

/**
 * Mints a token from the named JWT template for the caller's session: the
 * template's claims with shortcodes resolved, its lifetime, and the standard claims
 * (iss, sub, sid, env, iat, nbf, exp, azp), which mintAccessToken sets last and so
 * always win. The same PENDING rule as refresh applies.
 */
export async function mintFromTemplate(
  db: Database,
  environment: EnvironmentContext,
  active: ActiveSession,
  templateName: string,
  context: RequestContext,
): Promise<AccessToken> {
  const template = await findJwtTemplateByName(db, environment.id, templateName);
  if (!template) throw new AppError("resource_not_found", `No JWT template named "${templateName}" in this environment.`);
  const resolved = resolveShortcodes(template.claims, shortcodeContext(active.user, active.session.id));
  if (!isPlainObject(resolved)) throw new Error(`jwt template ${template.id} claims are not an object`);
  // Metadata shortcodes can multiply a small template; refuse rather than mint a token no proxy will carry.
  const size = claimsBytes(resolved);
  if (size > MAX_RESOLVED_CLAIMS_BYTES) {
    throw new AppError(
      "invalid_request",
      `Template "${templateName}" resolves to ${size} bytes of claims for this user; the limit is ${MAX_RESOLVED_CLAIMS_BYTES}. Reference less metadata.`,
    );
  }
  const minted = await mintAccessToken(db, environment, active.session, {
    origin: context.origin,
    lifetimeSeconds: template.lifetimeSeconds,
    claims: withoutReservedClaims(resolved),
  });
  return { accessToken: minted.token, expiresAt: minted.expiresAt };
}
