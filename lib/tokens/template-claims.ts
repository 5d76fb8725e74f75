import { isPlainObject, type JsonObject } from "../json/deep-merge";
import { shortcodePaths } from "./shortcodes";

export const MAX_TEMPLATE_CLAIMS_BYTES = 4096;
/** A resolved template may grow (metadata shortcodes); tokens travel in headers, whose limits are ~8-16 KiB. */
export const MAX_RESOLVED_CLAIMS_BYTES = 8192;

/**
 * Claims Gatehouse sets itself (CONTRACT §3). A template may not set them: a
 * downstream service trusts `sub`, `sid`, `env`, `azp`, `act` and the org claims
 * to mean what Gatehouse verified, and the time claims to bound the token.
 * `aud` and `jti` stay free, as integrations often need a fixed audience.
 */
export const RESERVED_CLAIMS = ["iss", "sub", "sid", "exp", "iat", "nbf", "env", "azp", "act", "org_id", "org_role", "org_permissions"] as const;
const RESERVED = new Set<string>(RESERVED_CLAIMS);

/** `user.private_metadata`, however spaced or cased, and anything below it. */
const PRIVATE_METADATA = /^user\.private_?metadata(\.|$)/i;

export interface ClaimProblem {
  path: (string | number)[];
  message: string;
}

export function claimsBytes(claims: unknown): number {
  return Buffer.byteLength(JSON.stringify(claims), "utf8");
}

/** Everything wrong with a template's claims, each with the path of the offending value. */
export function templateClaimProblems(claims: JsonObject): ClaimProblem[] {
  const problems: ClaimProblem[] = [];
  for (const key of Object.keys(claims)) {
    if (RESERVED.has(key)) problems.push({ path: [key], message: `is set by Gatehouse on every token and cannot be overridden` });
  }
  const size = claimsBytes(claims);
  if (size > MAX_TEMPLATE_CLAIMS_BYTES) {
    problems.push({ path: [], message: `are ${size} bytes of JSON; the limit is ${MAX_TEMPLATE_CLAIMS_BYTES}` });
  }
  walkStrings(claims, [], (text, path) => {
    if (shortcodePaths(text).some((code) => PRIVATE_METADATA.test(code.replace(/\s+/g, "")))) {
      problems.push({ path, message: "private metadata is server-only and never put in a token" });
    }
  });
  return problems;
}

/** Strips reserved claims from resolved claims: templates stored before a claim became reserved still cannot set it. */
export function withoutReservedClaims(claims: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(claims).filter(([key]) => !RESERVED.has(key)));
}

function walkStrings(value: unknown, path: (string | number)[], visit: (text: string, path: (string | number)[]) => void): void {
  if (typeof value === "string") visit(value, path);
  else if (Array.isArray(value)) value.forEach((item, index) => walkStrings(item, [...path, index], visit));
  else if (isPlainObject(value)) for (const [key, inner] of Object.entries(value)) walkStrings(inner, [...path, key], visit);
}
