import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
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
import { signInOperator } from "../operators/sign-in-operator";

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
export function dashboardAuthConfig(): NextAuthConfig {
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
    ],
    callbacks: {
      jwt({ token, user }) {
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
      // A refused sign-in is an answer, not a fault: it is in the audit trail and the rate limits, not the error log.
      error(error) {
        if (error instanceof CredentialsSignin) return;
        logUnexpectedError("dashboard-auth", error);
      },
      warn() {},
    },
  };
}

export const { auth, signIn, signOut } = NextAuth(() => dashboardAuthConfig());
