import NextAuth, { AuthError, CredentialsSignin, type NextAuthConfig, type Profile } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getDb } from "@/db/client";
import { loginBody } from "../auth/schemas";
import { publicUrl } from "../config/runtime";
import { derivedKey } from "../crypto/master-key";
import { AppError } from "../errors";
import { requestContextOf } from "../http/request-context";
import { requestIdFor } from "../http/request-id";
import { logUnexpectedError } from "../log";
import type { OperatorRole } from "../operation/caller";
import { OPERATOR_SESSION_LIFETIME_SECONDS } from "../operators/internal-environment";
import { findOperatorByEmail } from "../operators/operators";
import { signInOperator, signInOperatorWithSso } from "../operators/sign-in-operator";
import { emailSchema } from "../users/email";
import { STAFF_SSO_PROVIDER, staffSsoSettings } from "./staff-sso";

declare module "next-auth" {
  interface User {
    role?: OperatorRole;
    /** The operator's session in the internal environment. */
    sessionId?: string;
  }
  interface Session {
    /** What the cookie says; lib/dashboard/operator-session.ts checks it against the database on every request. */
    operator?: { id: string; sessionId: string };
  }
}

/** The cookie of the dashboard's session: only sent to /dashboard, never to the API or an environment's hosted pages. */
export const DASHBOARD_COOKIE = "gh_dashboard";

/**
 * A refused sign-in, with our error code (invalid_credentials, rate_limited,
 * user_banned) for the sign-in form. next-auth hands it back to the server action
 * unchanged (signIn runs in raw mode there), and would put `code` in a redirect URL:
 * the codes are the ones the Client API answers, so they reveal nothing more.
 */
export class OperatorSignInRefused extends CredentialsSignin {
  constructor(
    readonly refusal: AppError,
  ) {
    super(refusal.message);
    this.code = refusal.code;
  }
}

/**
 * next-auth's `authorize`: the operator sign-in rules (lib/operators/sign-in-operator.ts,
 * which are the end-users' sign-in on the internal environment), read from the request
 * the server action received: its client IP (as the route kit trusts it) counts
 * toward the per-IP limit. Every refusal is one of our AppErrors.
 */
export async function authorizeOperator(credentials: Partial<Record<string, unknown>>, request: Request) {
  const input = loginBody.safeParse({ email: credentials.email, password: credentials.password });
  if (!input.success) throw new OperatorSignInRefused(new AppError("invalid_credentials", "The email or password is wrong."));
  const context = requestContextOf(request, requestIdFor(request));
  try {
    const signedIn = await signInOperator(getDb(), input.data, context);
    return { id: signedIn.operator.id, email: signedIn.operator.email, role: signedIn.operator.role, sessionId: signedIn.sessionId };
  } catch (error) {
    if (error instanceof AppError) throw new OperatorSignInRefused(error);
    throw error;
  }
}

/** The secret next-auth encrypts its cookie with: derived from GATEHOUSE_SECRET, so there is no AUTH_SECRET to configure. */
function dashboardAuthSecret(): string {
  return Buffer.from(derivedKey("dashboard-auth/v1")).toString("base64url");
}

/** The verified address a staff identity provider vouches for, or null (no address, or not verified). */
function verifiedEmailOf(profile: Profile | undefined): string | null {
  if (profile?.email_verified !== true || typeof profile.email !== "string") return null;
  const email = emailSchema.safeParse(profile.email);
  return email.success ? email.data : null;
}

/**
 * The staff single sign-on provider (lib/dashboard/staff-sso.ts), when configured: an
 * OpenID Connect client with PKCE, state and nonce, posting its secret as our own
 * provider clients do. Its callback is /dashboard/api/auth/callback/staff-sso.
 */
function staffSsoProviders(): NextAuthConfig["providers"] {
  const settings = staffSsoSettings();
  if (!settings) return [];
  return [
    {
      id: STAFF_SSO_PROVIDER,
      name: "Staff SSO",
      type: "oidc",
      issuer: settings.issuer,
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      client: { token_endpoint_auth_method: "client_secret_post" },
      checks: ["pkce", "state", "nonce"],
      // The address and its verification from UserInfo (checked against the id_token's sub), as our provider sign-in reads them: many providers leave them out of the id_token.
      idToken: false,
      authorization: { params: { scope: "openid email profile" } },
    },
  ];
}

/**
 * The dashboard's next-auth (Auth.js 5) configuration, built per request so the
 * master secret and PUBLIC_URL are read at run time. JWT sessions: the cookie holds
 * the operator's id and the id of their session in the internal environment, and
 * lib/dashboard/operator-session.ts checks both against the database on every
 * request. That server-side session is what enforces the limits (12 hours from
 * sign-in, 30 minutes idle: the internal environment's session settings, judged by
 * lib/sessions/resolve-session.ts and touched by each dashboard request), because a
 * server component cannot rewrite the cookie, so a sliding JWT alone would not slide.
 * The cookie's own maxAge is the 12 hours, so it never outlives the session.
 */
export function dashboardAuthConfig(request?: Request): NextAuthConfig {
  const secure = publicUrl().startsWith("https:");
  return {
    secret: dashboardAuthSecret(),
    trustHost: true,
    basePath: "/dashboard/api/auth",
    session: { strategy: "jwt", maxAge: OPERATOR_SESSION_LIFETIME_SECONDS },
    cookies: {
      sessionToken: {
        name: secure ? `__Secure-${DASHBOARD_COOKIE}` : DASHBOARD_COOKIE,
        options: { httpOnly: true, sameSite: "lax", path: "/dashboard", secure },
      },
    },
    pages: { signIn: "/dashboard/sign-in", error: "/dashboard/sign-in" },
    providers: [
      Credentials({
        credentials: { email: { type: "email" }, password: { type: "password" } },
        authorize: authorizeOperator,
      }),
      ...staffSsoProviders(),
    ],
    callbacks: {
      // Staff SSO lets in only an address the provider verified and an owner made an operator.
      async signIn({ account, profile }) {
        if (account?.provider !== STAFF_SSO_PROVIDER) return true;
        const email = verifiedEmailOf(profile);
        return email !== null && (await findOperatorByEmail(getDb(), email)) !== null;
      },
      async jwt({ token, user, account, profile }) {
        if (account?.provider === STAFF_SSO_PROVIDER) {
          // Checked by the signIn callback just before; a removal in between fails here (forbidden).
          const email = verifiedEmailOf(profile) ?? "";
          const context = requestContextOf(request ?? new Request(publicUrl()), request ? requestIdFor(request) : "dashboard-sso");
          const signedIn = await signInOperatorWithSso(getDb(), { email }, context);
          return { ...token, sub: signedIn.operator.id, operatorId: signedIn.operator.id, sessionId: signedIn.sessionId, role: signedIn.operator.role };
        }
        if (user?.id && user.sessionId) {
          token.operatorId = user.id;
          token.sessionId = user.sessionId;
          // The role at sign-in, for the record; every request reads the current one from the database.
          token.role = user.role;
        }
        return token;
      },
      session({ session, token }) {
        const { operatorId, sessionId } = token;
        if (typeof operatorId === "string" && typeof sessionId === "string") session.operator = { id: operatorId, sessionId };
        return session;
      },
    },
    logger: {
      // A refused sign-in (a wrong password, an address staff SSO may not let in) is an answer, not a fault: not for the error log.
      error(error) {
        if (error instanceof CredentialsSignin || (error instanceof AuthError && error.type === "AccessDenied")) return;
        logUnexpectedError("dashboard-auth", error);
      },
      warn() {},
    },
  };
}

export const { auth, signIn, signOut, handlers } = NextAuth((request) => dashboardAuthConfig(request));
