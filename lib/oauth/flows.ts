import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { oauthFlows } from "@/db/schema";
import { randomToken, sha256 } from "../crypto/tokens";
import { seal, unseal } from "../crypto/secret-box";
import type { EnvironmentContext } from "../environments/context";
import type { LinkBase } from "../environments/environment-links";
import { hostPrefixed } from "../operation/cookie-header";
import type { RequestContext } from "../operation/request-context";
import type { FlowCookie } from "../operation/response-effects";

/**
 * An OAuth authorization in flight (RFC 6749 §10.12, RFC 9700 §4.7): the `state`
 * sent to the provider is random, stored hashed, single use and 10 minutes long;
 * it is bound to the provider it was sent to and to the browser that started it by
 * a short-lived HttpOnly cookie, so a callback URL replayed, forged (login CSRF) or
 * carried to another browser or provider finds no flow. The nonce and the PKCE
 * verifier toward the provider (RFC 7636) live only here; the verifier sealed.
 */

export const FLOW_LIFETIME_MINUTES = 10;
const BROWSER_COOKIE = "gh_oauth";
/** On http (loopback development) the cookie is sent only to the OAuth endpoints: authorize, callback, link, reverify and their completions. */
const BROWSER_COOKIE_PATH = "/_svc/auth/oauth2";

const BROWSER_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export type FlowIntent = "sign_in" | "link" | "reverify";

/** The flows a signed-in session starts: connecting a provider account, or confirming it is you with one. */
export type SessionFlowIntent = Exclude<FlowIntent, "sign_in">;

/** Where the callback hands each session flow on to: on the flow's host, where the session cookie lives. */
export const SESSION_FLOW_COMPLETE_PATHS: Record<SessionFlowIntent, string> = {
  link: "/_svc/auth/oauth2/link/complete",
  reverify: "/_svc/auth/oauth2/reverify/complete",
};
export type FlowRow = typeof oauthFlows.$inferSelect;

export interface FlowInput {
  providerId: string;
  intent: FlowIntent;
  /** For a link: the signed-in user and the session that asked. */
  userId?: string | null;
  sessionId?: string | null;
  /** Already accepted by safeRedirect; null for the default destination. */
  redirectUrl: string | null;
  base: LinkBase;
  native: boolean;
  /** A native app's S256 challenge, carried to its ticket or continuation. */
  codeChallenge: string | null;
}

export interface StartedFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** The browser binding to (re)set as the gh_oauth cookie (`__Host-gh_oauth` on https). */
  browserCookie: FlowCookie;
}

/** A flow's completed view: the stored row with its verifier unsealed and its link base parsed. */
export interface ConsumedFlow {
  id: string;
  environmentId: string;
  providerId: string;
  intent: FlowIntent;
  userId: string | null;
  sessionId: string | null;
  redirectUrl: string | null;
  base: LinkBase;
  native: boolean;
  codeChallenge: string | null;
  nonce: string;
  codeVerifier: string;
  /** When the flow began: a reverification's provider sign-in must not be older. */
  startedAt: Date;
}

const linkBaseSchema = z.object({ origin: z.string(), publishableKey: z.string().nullable() });

/** The name of a browser-binding cookie on a flow's host: `__Host-` prefixed when that host is https (hostPrefixed). */
export function hostCookieName(base: LinkBase, name: string): string {
  return hostPrefixed(name, base.origin.startsWith("https:"));
}

/** The gh_oauth cookie as this request presents it on the flow's host (the plain name is not read on https). */
export function presentedBrowserToken(base: LinkBase, context: RequestContext): string | undefined {
  return context.cookies?.[hostCookieName(base, BROWSER_COOKIE)];
}

export function browserCookie(base: LinkBase, token: string): FlowCookie {
  const secure = base.origin.startsWith("https:");
  return {
    name: hostCookieName(base, BROWSER_COOKIE),
    value: token,
    // A __Host- cookie must have Path=/; it is then sent to every path of the host, which changes nothing: only the OAuth endpoints read it.
    path: secure ? "/" : BROWSER_COOKIE_PATH,
    maxAgeSeconds: FLOW_LIFETIME_MINUTES * 60,
    secure,
  };
}

/**
 * The browser token this request already carries, reused while a flow bound to it
 * is still live, so that two flows started in two tabs of one browser both
 * complete; a new one otherwise. A token with no live flow is never adopted: it
 * may have been planted (login CSRF, or a binding known to whoever chose it), and
 * a fresh one orphans no pending flow. The check is not per environment: the
 * cookie belongs to the host, which several environments share through PUBLIC_URL,
 * and it reads nothing but whether this browser's own token is in use.
 */
async function browserToken(db: Database, presented: string | null | undefined): Promise<string> {
  if (!presented || !BROWSER_TOKEN.test(presented)) return randomToken(32);
  const [live] = await db
    .select({ id: oauthFlows.id })
    .from(oauthFlows)
    .where(and(eq(oauthFlows.browserHash, sha256(presented)), isNull(oauthFlows.consumedAt), gt(oauthFlows.expiresAt, sql`now()`)))
    .limit(1);
  return live ? presented : randomToken(32);
}

/** Stores a new flow and returns what the authorization request carries, plus the browser cookie to set. */
export async function startFlow(
  db: Database,
  environment: EnvironmentContext,
  input: FlowInput,
  presented: string | null | undefined,
): Promise<StartedFlow> {
  const browser = await browserToken(db, presented);
  const state = randomToken(32);
  const nonce = randomToken(32);
  const codeVerifier = randomToken(48);
  await db.insert(oauthFlows).values({
    environmentId: environment.id,
    providerId: input.providerId,
    stateHash: sha256(state),
    browserHash: sha256(browser),
    nonce,
    codeVerifierSealed: await seal(codeVerifier),
    intent: input.intent,
    userId: input.userId ?? null,
    sessionId: input.sessionId ?? null,
    redirectUrl: input.redirectUrl,
    linkBase: JSON.stringify(input.base),
    native: input.native,
    codeChallenge: input.codeChallenge,
    expiresAt: new Date(Date.now() + FLOW_LIFETIME_MINUTES * 60_000),
  });
  return { state, nonce, codeVerifier, browserCookie: browserCookie(input.base, browser) };
}

export interface FlowMatch {
  state: string | undefined;
  /** The gh_oauth cookie the callback arrived with. */
  browserToken: string | null | undefined;
  /** The intent the flow must have (or one of these). */
  intent: FlowIntent | readonly FlowIntent[];
  /** The provider whose callback this is; omitted at link/complete, which learns it from the flow. */
  providerId?: string;
}

/**
 * Every binding of a flow as one condition: this state, browser, intent (and
 * provider), still live, and of the environment when the request names one. A
 * callback reached through PUBLIC_URL names none (the redirect URI registered with
 * the provider carries no `pk`): its flow, found by the state, says which it is.
 */
function matching(environmentId: string | null, match: FlowMatch & { state: string; browserToken: string }) {
  return and(
    eq(oauthFlows.stateHash, sha256(match.state)),
    environmentId === null ? undefined : eq(oauthFlows.environmentId, environmentId),
    eq(oauthFlows.browserHash, sha256(match.browserToken)),
    typeof match.intent === "string" ? eq(oauthFlows.intent, match.intent) : inArray(oauthFlows.intent, [...match.intent]),
    match.providerId === undefined ? undefined : eq(oauthFlows.providerId, match.providerId),
    isNull(oauthFlows.consumedAt),
    gt(oauthFlows.expiresAt, sql`now()`),
  );
}

function usable(match: FlowMatch): match is FlowMatch & { state: string; browserToken: string } {
  return Boolean(match.state && match.state.length <= 512 && match.browserToken && BROWSER_TOKEN.test(match.browserToken));
}

async function toConsumed(row: FlowRow): Promise<ConsumedFlow> {
  return {
    id: row.id,
    environmentId: row.environmentId,
    providerId: row.providerId,
    intent: row.intent,
    userId: row.userId,
    sessionId: row.sessionId,
    redirectUrl: row.redirectUrl,
    base: linkBaseSchema.parse(JSON.parse(row.linkBase)),
    native: row.native,
    codeChallenge: row.codeChallenge,
    nonce: row.nonce,
    codeVerifier: await unseal(row.codeVerifierSealed),
    startedAt: row.createdAt,
  };
}

/**
 * Consumes the flow a callback names, with one conditional UPDATE: of any number of
 * concurrent or replayed callbacks exactly one gets the flow. A state that is
 * unknown, used, expired, of another environment, provider, intent or browser
 * matches nothing and the flow, if any, stays untouched for its own browser.
 */
export async function consumeFlow(db: Database, environmentId: string | null, match: FlowMatch): Promise<ConsumedFlow | null> {
  if (!usable(match)) return null;
  const [row] = await db.update(oauthFlows).set({ consumedAt: new Date() }).where(matching(environmentId, match)).returning();
  return row ? toConsumed(row) : null;
}

/**
 * The host and intent of a live flow that matches, without consuming it: the
 * callback of a flow a signed-in session started (link, reverify) hands it on to
 * that flow's completion on that host, where the session cookie is.
 */
export async function peekFlowBase(db: Database, environmentId: string | null, match: FlowMatch): Promise<{ base: LinkBase; intent: FlowIntent } | null> {
  if (!usable(match)) return null;
  const [row] = await db.select({ linkBase: oauthFlows.linkBase, intent: oauthFlows.intent }).from(oauthFlows).where(matching(environmentId, match)).limit(1);
  return row ? { base: linkBaseSchema.parse(JSON.parse(row.linkBase)), intent: row.intent } : null;
}
