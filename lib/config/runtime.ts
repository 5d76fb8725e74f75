/** Settings read from the process environment at call time, so tests and scripts can set them first. */
export function port(): number {
  return Number(process.env.PORT ?? 3000);
}

export function publicUrl(): string {
  return (process.env.PUBLIC_URL ?? `http://localhost:${port()}`).replace(/\/+$/, "");
}

/**
 * `TRUSTED_PROXY_HOPS`: how many reverse proxies of the operator's own stand in front
 * of Gatehouse. Anything but a whole number counts as 0, the least trust (production
 * refuses to start with it: lib/config/production-checks.ts).
 */
const parsedHops = { raw: undefined as string | undefined, hops: 0 };

export function trustedProxyHops(): number {
  // Read on every request (client IP): parse once per value, not once per call.
  const raw = process.env.TRUSTED_PROXY_HOPS;
  if (raw !== parsedHops.raw) {
    const trimmed = raw?.trim() || "0";
    parsedHops.raw = raw;
    parsedHops.hops = /^\d{1,2}$/.test(trimmed) ? Number(trimmed) : 0;
  }
  return parsedHops.hops;
}

/**
 * `OAUTH_PRIVATE_HOSTS`: comma-separated hosts (names or IP literals) an OAuth provider
 * may be reached at in production although they are not public: an identity provider
 * on the operator's own network (lib/oauth/outbound-address.ts).
 */
export function oauthPrivateHosts(): string[] {
  return (process.env.OAUTH_PRIVATE_HOSTS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * Production mode. `next start` forces NODE_ENV=production inside the server, so
 * `npm start` passes the user's own intent as GATEHOUSE_MODE; without it (a bare
 * `next start`) NODE_ENV decides, which errs on the strict side.
 */
export function isProduction(): boolean {
  const mode = process.env.GATEHOUSE_MODE ?? process.env.NODE_ENV;
  return mode === "production";
}
