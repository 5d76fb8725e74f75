import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { oauthProviders } from "@/db/schema";
import { consumeCode, findLiveCode, invalidCode, issueCode } from "../auth/one-time-codes";
import { randomToken, safeEqual, sha256 } from "../crypto/tokens";
import type { EnvironmentContext } from "../environments/context";
import { linkBase, type LinkBase } from "../environments/environment-links";
import { AppError, invalidField } from "../errors";
import type { RequestContext } from "../operation/request-context";
import type { FlowCookie } from "../operation/response-effects";
import { establishSession, type Establishment } from "../sessions/establish-session";
import { verifierMatches } from "../tickets/pkce";
import { emailTaken } from "../users/create-user";
import { hostCookieName } from "./flows";
import { holdProvider } from "./hold-provider";
import type { ProviderProfile } from "./profile";
import { accountExists, createOAuthUser } from "./resolve-sign-in";

/**
 * An OAuth sign-up deferred until the person accepts the environment's terms
 * (spec: "OAuth sign-ups that are deferred pending legal consent"). The provider
 * account is proven; what is pending is only the consent. The token is a
 * `signup_continuation` one-time code (hashed, 10 minutes, single use) whose
 * payload holds the provider, the profile and what proves, when finalising, that
 * the caller is the one who signed in at the provider: for a native app the S256
 * challenge its verifier must answer; on the web the hash of a random secret
 * that only the browser which came back from the provider holds, in an HttpOnly
 * cookie. The token travels in a URL (the hosted consent page's); without the
 * cookie it is worth nothing to whoever reads it there, and it cannot be used to
 * sign someone else's browser in to a new account (login CSRF).
 */

export const CONTINUATION_LIFETIME_MINUTES = 10;
/** The web continuation's browser secret: `__Host-gh_oauth_signup` on https. */
const CONTINUATION_COOKIE = "gh_oauth_signup";

const nullableText = z.string().nullable();
const payloadSchema = z.object({
  providerId: z.string(),
  profile: z.object({
    subject: z.string(),
    email: nullableText,
    emailVerified: z.boolean(),
    name: nullableText,
    firstName: nullableText,
    lastName: nullableText,
    picture: nullableText,
    username: nullableText,
  }),
  codeChallenge: z.string().nullable(),
  /** SHA-256 of the web continuation's browser secret; null for a native one (absent: issued before browsers were bound, never finishable on the web). */
  browserHash: z.string().nullable().optional(),
});
type ContinuationPayload = z.output<typeof payloadSchema>;

/** What binds a continuation to the one who may finish it: a native app's S256 challenge, or the browser on the flow's host. */
export type ContinuationBinding = { codeChallenge: string } | { browser: LinkBase };

export interface IssuedContinuation {
  token: string;
  /** A web continuation's browser secret, to set on the redirect to the consent page; null for a native app. */
  browserCookie: FlowCookie | null;
}

function continuationCookie(base: LinkBase, secret: string): FlowCookie {
  return {
    name: hostCookieName(base, CONTINUATION_COOKIE),
    value: secret,
    // Both places that finish it read it: the hosted consent page's action (/sign-up/continue) and POST /_svc/auth/signup/continue.
    path: "/",
    maxAgeSeconds: CONTINUATION_LIFETIME_MINUTES * 60,
    secure: base.origin.startsWith("https:"),
  };
}

export async function issueContinuation(
  db: Database,
  environment: EnvironmentContext,
  input: { providerId: string; profile: ProviderProfile; binding: ContinuationBinding },
): Promise<IssuedContinuation> {
  const { binding } = input;
  const secret = "browser" in binding ? randomToken(32) : null;
  const payload: ContinuationPayload = {
    providerId: input.providerId,
    profile: input.profile,
    codeChallenge: "codeChallenge" in binding ? binding.codeChallenge : null,
    browserHash: secret === null ? null : sha256(secret),
  };
  const issued = await issueCode(db, {
    environmentId: environment.id,
    purpose: "signup_continuation",
    email: input.profile.email ?? "",
    payload,
    lifetimeMinutes: CONTINUATION_LIFETIME_MINUTES,
    withCode: false,
  });
  return { token: issued.token, browserCookie: "browser" in binding && secret ? continuationCookie(binding.browser, secret) : null };
}

/**
 * A web continuation is finished only by the browser that came back from the
 * provider: the secret its cookie holds must hash to the one stored (constant
 * time). Anything else answers like an unknown token, and the token stays good
 * for its own browser.
 */
function assertSameBrowser(environment: EnvironmentContext, payload: ContinuationPayload, context: RequestContext): void {
  if (payload.codeChallenge !== null) return;
  const presented = context.cookies?.[hostCookieName(linkBase(environment, context.host), CONTINUATION_COOKIE)];
  if (!payload.browserHash || !presented || !safeEqual(sha256(presented), payload.browserHash)) throw invalidCode();
}

export interface ContinuationView {
  status: "pending";
  missingRequirements: "legal_consent"[];
  provider: { id: string; name: string };
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  requiresCodeVerifier: boolean;
  legal: { termsUrl: string | null; privacyUrl: string | null };
  expiresAt: string;
}

async function providerName(db: Database, environmentId: string, providerId: string): Promise<string> {
  const [row] = await db
    .select({ name: oauthProviders.name })
    .from(oauthProviders)
    .where(and(eq(oauthProviders.environmentId, environmentId), eq(oauthProviders.id, providerId)))
    .limit(1);
  return row?.name ?? providerId;
}

async function liveContinuation(db: Database, environment: EnvironmentContext, token: string) {
  const row = await findLiveCode(db, environment.id, "signup_continuation", token);
  const parsed = row ? payloadSchema.safeParse(row.payload) : null;
  if (!row || !parsed?.success) throw invalidCode();
  return { row, payload: parsed.data };
}

/**
 * What a continuation still waits for; changes nothing. With `browser` (the hosted
 * consent page) only the browser that may finish it is shown it; the Client API's
 * GET shows any holder of the token the same as before the binding.
 */
export async function describeContinuation(
  db: Database,
  environment: EnvironmentContext,
  token: string,
  browser?: RequestContext,
): Promise<ContinuationView> {
  const { row, payload } = await liveContinuation(db, environment, token);
  if (browser) assertSameBrowser(environment, payload, browser);
  const { legal } = environment.settings;
  return {
    status: "pending",
    missingRequirements: legal.requireConsent ? ["legal_consent"] : [],
    provider: { id: payload.providerId, name: await providerName(db, environment.id, payload.providerId) },
    email: payload.profile.emailVerified ? payload.profile.email : null,
    firstName: payload.profile.firstName,
    lastName: payload.profile.lastName,
    requiresCodeVerifier: payload.codeChallenge !== null,
    legal: { termsUrl: legal.termsUrl, privacyUrl: legal.privacyUrl },
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * Finalises a deferred OAuth sign-up, atomically: the token is consumed, the user,
 * its identity and the legal acceptance are created and the session is opened in
 * one transaction, and of concurrent finalisations exactly one wins. A web
 * continuation requires its browser's cookie; a native one the verifier of its
 * S256 challenge, and a wrong one burns the token (a stolen token is worth one
 * guess). Refusing the terms changes nothing.
 */
export async function finishContinuation(
  db: Database,
  environment: EnvironmentContext,
  input: { token: string; legalConsentAccepted: boolean; codeVerifier?: string | null },
  context: RequestContext,
): Promise<Establishment> {
  const { row, payload } = await liveContinuation(db, environment, input.token);
  assertSameBrowser(environment, payload, context);
  if (environment.settings.legal.requireConsent && !input.legalConsentAccepted) {
    throw new AppError("legal_consent_required", "Accept the terms (legalConsentAccepted: true) to finish signing up; see GET /_svc/legal.");
  }
  if (payload.codeChallenge !== null && !input.codeVerifier) {
    throw invalidField("codeVerifier", "is required: this sign-up was started by a native app with a code_challenge");
  }
  const verifierOk = payload.codeChallenge === null || verifierMatches(input.codeVerifier ?? "", payload.codeChallenge);
  try {
    const outcome = await db.transaction(async (tx) => {
      // Before the token is spent: a provider deletion takes the provider, then the pending continuations.
      await holdProvider(tx, environment.id, payload.providerId);
      const consumed = await consumeCode(tx, row, null);
      if (!consumed) return { kind: "used" as const };
      // Committed with the consumption: the token is spent even though nothing else happens.
      if (!verifierOk) return { kind: "wrong_verifier" as const };
      const user = await createOAuthUser(
        tx,
        environment,
        { providerId: payload.providerId, profile: payload.profile, legalConsentAccepted: input.legalConsentAccepted },
        context,
      );
      return { kind: "established" as const, result: await establishSession(tx, environment, user, { methods: ["oauth"] }, context) };
    });
    if (outcome.kind !== "established") throw invalidCode();
    return outcome.result;
  } catch (error) {
    // Someone took the address or the provider account while the consent was pending.
    if (isUniqueViolation(error)) throw payload.profile.emailVerified ? emailTaken() : accountExists();
    throw error;
  }
}
