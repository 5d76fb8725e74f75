import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { isUniqueViolation } from "@/db/errors";
import { oauthProviders } from "@/db/schema";
import { consumeCode, findLiveCode, invalidCode, issueCode } from "../auth/one-time-codes";
import type { EnvironmentContext } from "../environments/context";
import { AppError, invalidField } from "../errors";
import type { RequestContext } from "../http/request-context";
import { establishSession, type Establishment } from "../sessions/establish-session";
import { verifierMatches } from "../tickets/pkce";
import { emailTaken } from "../users/create-user";
import type { ProviderProfile } from "./profile";
import { accountExists, createOAuthUser } from "./resolve-sign-in";

/**
 * An OAuth sign-up deferred until the person accepts the environment's terms
 * (spec: "OAuth sign-ups that are deferred pending legal consent"). The provider
 * account is proven; what is pending is only the consent. The token is a
 * `signup_continuation` one-time code (hashed, 10 minutes, single use) whose
 * payload holds the provider, the profile and, for a native app, the S256
 * challenge its verifier must answer when finalising.
 */

export const CONTINUATION_LIFETIME_MINUTES = 10;

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
});
type ContinuationPayload = z.output<typeof payloadSchema>;

export async function issueContinuation(
  db: Database,
  environment: EnvironmentContext,
  input: { providerId: string; profile: ProviderProfile; codeChallenge: string | null },
): Promise<string> {
  const payload: ContinuationPayload = { providerId: input.providerId, profile: input.profile, codeChallenge: input.codeChallenge };
  const issued = await issueCode(db, {
    environmentId: environment.id,
    purpose: "signup_continuation",
    email: input.profile.email ?? "",
    payload,
    lifetimeMinutes: CONTINUATION_LIFETIME_MINUTES,
    withCode: false,
  });
  return issued.token;
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

/** What a continuation still waits for; changes nothing. */
export async function describeContinuation(db: Database, environment: EnvironmentContext, token: string): Promise<ContinuationView> {
  const { row, payload } = await liveContinuation(db, environment, token);
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
 * one transaction, and of concurrent finalisations exactly one wins. A native
 * continuation requires the verifier of its S256 challenge; a wrong one burns the
 * token (a stolen token is worth one guess). Refusing the terms changes nothing.
 */
export async function finishContinuation(
  db: Database,
  environment: EnvironmentContext,
  input: { token: string; legalConsentAccepted: boolean; codeVerifier?: string | null },
  context: RequestContext,
): Promise<Establishment> {
  const { row, payload } = await liveContinuation(db, environment, input.token);
  if (environment.settings.legal.requireConsent && !input.legalConsentAccepted) {
    throw new AppError("legal_consent_required", "Accept the terms (legalConsentAccepted: true) to finish signing up; see GET /_svc/legal.");
  }
  if (payload.codeChallenge !== null && !input.codeVerifier) {
    throw invalidField("codeVerifier", "is required: this sign-up was started by a native app with a code_challenge");
  }
  const verifierOk = payload.codeChallenge === null || verifierMatches(input.codeVerifier ?? "", payload.codeChallenge);
  try {
    const outcome = await db.transaction(async (tx) => {
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
