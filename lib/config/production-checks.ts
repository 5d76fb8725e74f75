import { isProduction } from "./runtime";

/** Values from docs and examples that must never protect a real deployment. */
const KNOWN_EXAMPLE_SECRETS = new Set([
  "changeme",
  "change-me",
  "secret",
  "gatehouse",
  "replace-me-with-32-random-bytes-of-base64",
  "0000000000000000000000000000000000000000000000000000000000000000",
]);

export const MIN_SECRET_LENGTH = 32;

/**
 * Why the server must not start, or null when it may.
 * Only production is strict: development generates its own secret into the data folder.
 */
export function productionStartProblem(env: Record<string, string | undefined> = process.env): string | null {
  if (!isProduction()) return null;
  const secret = env.GATEHOUSE_SECRET;
  if (!secret) return "GATEHOUSE_SECRET is not set; generate one with `openssl rand -base64 48`.";
  if (secret.length < MIN_SECRET_LENGTH) {
    return `GATEHOUSE_SECRET is ${secret.length} characters; it needs at least ${MIN_SECRET_LENGTH}.`;
  }
  if (KNOWN_EXAMPLE_SECRETS.has(secret.toLowerCase())) {
    return "GATEHOUSE_SECRET is an example value; generate one with `openssl rand -base64 48`.";
  }
  if (!env.PUBLIC_URL?.startsWith("https://")) {
    return "PUBLIC_URL must be an https:// URL in production (cookies and links depend on it).";
  }
  // The outbox keeps every code and link readable at /dev/mailbox and in the log:
  // a production server that never sends real email must be a deliberate choice.
  if ((env.EMAIL_TRANSPORT?.trim() || "outbox") === "outbox" && env.DEV_MAILBOX !== "1") {
    return "EMAIL_TRANSPORT is outbox (the default), which delivers no email; set EMAIL_TRANSPORT=smtp or resend, or DEV_MAILBOX=1 to keep the outbox on purpose.";
  }
  const hops = env.TRUSTED_PROXY_HOPS?.trim();
  if (hops && !/^\d{1,2}$/.test(hops)) {
    return `TRUSTED_PROXY_HOPS must be a whole number of proxies (0-99), not "${hops.slice(0, 20)}".`;
  }
  // The mailbox answers loopback only, and a reverse proxy on this host is loopback:
  // serving it in production must come with a stated proxy setup, even an explicit 0.
  if (env.DEV_MAILBOX === "1" && !hops) {
    return "DEV_MAILBOX=1 serves every code and link at /dev/mailbox; set TRUSTED_PROXY_HOPS too (0 when no reverse proxy stands in front of Gatehouse).";
  }
  const sso = [env.DASHBOARD_OIDC_ISSUER, env.DASHBOARD_OIDC_CLIENT_ID, env.DASHBOARD_OIDC_CLIENT_SECRET].map((value) => Boolean(value?.trim()));
  if (sso.some(Boolean) && !sso.every(Boolean)) {
    return "DASHBOARD_OIDC_ISSUER, DASHBOARD_OIDC_CLIENT_ID and DASHBOARD_OIDC_CLIENT_SECRET configure staff single sign-on together: set all three, or none.";
  }
  if (sso.every(Boolean) && !env.DASHBOARD_OIDC_ISSUER?.trim().startsWith("https://")) {
    return "DASHBOARD_OIDC_ISSUER must be an https:// URL in production.";
  }
  return null;
}
