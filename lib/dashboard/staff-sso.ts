import { isProduction } from "../config/runtime";

/** next-auth's id of the staff single sign-on provider; its callback is /dashboard/api/auth/callback/staff-sso. */
export const STAFF_SSO_PROVIDER = "staff-sso";

export interface StaffSsoSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Staff single sign-on for the dashboard: one OpenID Connect provider, configured by
 * DASHBOARD_OIDC_ISSUER, DASHBOARD_OIDC_CLIENT_ID and DASHBOARD_OIDC_CLIENT_SECRET
 * (all three, or none). Production refuses a partial setting or a non-https issuer
 * at start (lib/config/production-checks.ts); elsewhere either leaves it off.
 */
export function staffSsoSettings(env: Record<string, string | undefined> = process.env): StaffSsoSettings | null {
  const issuer = env.DASHBOARD_OIDC_ISSUER?.trim();
  const clientId = env.DASHBOARD_OIDC_CLIENT_ID?.trim();
  const clientSecret = env.DASHBOARD_OIDC_CLIENT_SECRET?.trim();
  if (!issuer || !clientId || !clientSecret) return null;
  if (isProduction() && !issuer.startsWith("https://")) return null;
  return { issuer: issuer.replace(/\/+$/, ""), clientId, clientSecret };
}
