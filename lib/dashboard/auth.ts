import NextAuth, { AuthError, CredentialsSignin, type NextAuthConfig, type Profile, type User } from "next-auth";
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
import type { RequestContext } from "../operation/request-context";
import { OPERATOR_SESSION_LIFETIME_SECONDS } from "../operators/internal-environment";
import { completeOperatorSignIn, completeOperatorSignInWithPasskey, signInOperator, type OperatorSignInStep } from "../operators/sign-in-operator";
import { signInOperatorWithSso } from "../operators/staff-sso-sign-in";
import type { SecondFactor } from "../sessions/establish-session";
import { emailSchema } from "../users/email";
import { rememberSecondStep, SECOND_STEP_PATH } from "./auth-second-step";
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

/** Where next-auth lives: its one HTTP route is the staff provider's callback under it (lib/dashboard/auth-route.ts). */
export const DASHBOARD_AUTH_BASE_PATH = "/dashboard/api/auth";

/**
 * A refused sign-in, with our error code (invalid_credentials, invalid_code,
 * rate_limited, user_banned) for the sign-in form. next-auth hands it back to the
 * server action unchanged (signIn runs in raw mode there), and would put `code` in a
 * redirect URL: the codes are the ones the Client API answers, so they reveal nothing more.
 */
export class OperatorSignInRefused extends CredentialsSignin {
  constructor(readonly refusal: AppError) {
    super(refusal.message);
    this.code = refusal.code;
  }
}

/**
 * A right password (or staff SSO) of an operator who holds a second factor: no
 * session yet, only the challenge, which the action keeps in the pending-step cookie
 * (lib/dashboard/auth-second-step.ts) for the second page. Never a session: next-auth
 * sets its cookie only for a user `authorize` returns.
 */
export class OperatorSecondFactorRequired extends CredentialsSignin {
  constructor(readonly challenge: { mfaToken: string; factors: SecondFactor[] }) {
    super("A second factor is required.");
    this.code = "second_factor_required";
  }
}

/** next-auth's user for a signed-in operator: the cookie records the operator and their session in the internal environment. */
function sessionUser(step: OperatorSignInStep) {
  if (step.kind === "second_factor_required") throw new OperatorSecondFactorRequired({ mfaToken: step.mfaToken, factors: step.factors });
  const { operator, sessionId } = step.signedIn;
  return { id: operator.id, email: operator.email, role: operator.role, sessionId };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * next-auth's `authorize`, the one way a dashboard session comes to exist, for each
 * step of a sign-in (the dashboard's server actions call it; its HTTP endpoint
 * answers 404): the password (lib/operators/sign-in-operator.ts, the end-users'
 * sign-in on the internal environment), then, for an operator with a second factor,
 * the mfaToken with an authenticator or recovery code, or with a passkey's
 * assertion (`passkey`, the ceremony's JSON). A password never yields a session for
 * an operator who owes a factor, and an mfaToken only with the factor. The client IP
 * of the action's request (as the route kit trusts it) counts toward the per-IP
 * limits. Every refusal is one of our AppErrors.
 */
export async function authorizeOperator(credentials: Partial<Record<string, unknown>>, request: Request) {
  const context = requestContextOf(request, requestIdFor(request));
  try {
    const mfaToken = text(credentials.mfaToken);
    if (mfaToken) return await secondStep(mfaToken, credentials, context);
    const input = loginBody.safeParse({ email: credentials.email, password: credentials.password });
    if (!input.success) throw new AppError("invalid_credentials", "The email or password is wrong.");
    return sessionUser(await signInOperator(getDb(), input.data, context));
  } catch (error) {
    if (error instanceof AppError) throw new OperatorSignInRefused(error);
    throw error;
  }
}

async function secondStep(mfaToken: string, credentials: Partial<Record<string, unknown>>, context: RequestContext) {
  const passkey = text(credentials.passkey);
  if (passkey) {
    let response: unknown;
    try {
      response = JSON.parse(passkey);
    } catch {
      response = passkey;
    }
    const signedIn = await completeOperatorSignInWithPasskey(getDb(), { mfaToken, response }, context);
    return sessionUser({ kind: "signed_in", signedIn });
  }
  const signedIn = await completeOperatorSignIn(getDb(), { mfaToken, code: text(credentials.code) }, context);
  return sessionUser({ kind: "signed_in", signedIn });
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
 * The staff provider's sign-in, in next-auth's signIn callback (before any cookie is
 * written): the operator is matched by the provider account (lib/operators/staff-sso-sign-in.ts).
 * Signed in, the operator and their session go on to the jwt callback on next-auth's
 * `user` (the object it hands from this callback to that one: no adapter, no copy);
 * owing a second factor, the browser goes to the second step with the challenge in
 * its cookie, and no session cookie is set; refused, next-auth's AccessDenied.
 */
async function staffSsoSignIn(user: User, profile: Profile | undefined, request: Request | undefined): Promise<boolean | string> {
  const settings = staffSsoSettings();
  const subject = typeof profile?.sub === "string" ? profile.sub : "";
  if (!settings || !subject) return false;
  const context = requestContextOf(request ?? new Request(publicUrl()), request ? requestIdFor(request) : "dashboard-sso");
  const name = typeof profile?.name === "string" ? profile.name.slice(0, 200) : null;
  let step: OperatorSignInStep;
  try {
    step = await signInOperatorWithSso(getDb(), { issuer: settings.issuer, subject, verifiedEmail: verifiedEmailOf(profile), name }, context);
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
  if (step.kind === "second_factor_required") {
    await rememberSecondStep({ token: step.mfaToken, factors: step.factors, next: "/dashboard" });
    return SECOND_STEP_PATH;
  }
  Object.assign(user, sessionUser(step));
  return true;
}

/**
 * The URL next-auth builds every link, redirect and callback on: PUBLIC_URL's origin
 * and the dashboard's base path. Auth.js reads it from process.env.AUTH_URL alone
 * (createActionURL for the server actions' sign-in, sign-out and session; the route
 * handler's request URL through reqWithEnvURL), so it is set here, from PUBLIC_URL,
 * every time the configuration is built; without it Auth.js takes the request's
 * Host and X-Forwarded-Host, which a client chooses. `trustHost` stays on only
 * because Auth.js refuses to run without it: with AUTH_URL set it reads no Host.
 */
export function dashboardAuthUrl(): string {
  return `${new URL(publicUrl()).origin}${DASHBOARD_AUTH_BASE_PATH}`;
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
  process.env.AUTH_URL = dashboardAuthUrl();
  const secure = publicUrl().startsWith("https:");
  return {
    secret: dashboardAuthSecret(),
    trustHost: true,
    basePath: DASHBOARD_AUTH_BASE_PATH,
    useSecureCookies: secure,
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
        credentials: { email: { type: "email" }, password: { type: "password" }, mfaToken: {}, code: {}, passkey: {} },
        authorize: authorizeOperator,
      }),
      ...staffSsoProviders(),
    ],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== STAFF_SSO_PROVIDER) return true;
        return staffSsoSignIn(user, profile, request);
      },
      async jwt({ token, user }) {
        if (user?.id && user.sessionId) {
          token.sub = user.id;
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
      // A refused sign-in (a wrong password, an account staff SSO may not let in) is an answer, not a fault: not for the error log.
      // next-auth also reports a fault thrown in the signIn callback as AccessDenied, with the fault as its cause: that one is logged.
      error(error) {
        if (error instanceof CredentialsSignin) return;
        if (error instanceof AuthError && error.type === "AccessDenied") {
          const fault = error.cause && typeof error.cause === "object" && "err" in error.cause ? error.cause.err : null;
          if (fault) logUnexpectedError("dashboard-auth", fault);
          return;
        }
        logUnexpectedError("dashboard-auth", error);
      },
      warn() {},
    },
  };
}

export const { auth, signIn, signOut, handlers } = NextAuth((request) => dashboardAuthConfig(request));
