import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { legalAcceptances, oauthFlows, oneTimeCodes, sessions, userIdentities, users } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { findEnvironment } from "@/lib/environments/context";
import { requestContextOf } from "@/lib/http/request-context";
import { describeContinuation } from "@/lib/oauth/signup-continuation";
import { publicUrl } from "@/lib/config/runtime";
import { call, expectProblem, problemFields } from "../helpers/api";
import { ageSignIn, clientApi, latestEmail } from "../helpers/client";
import { createUser, openSession, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { enrollTotp, signedInClient } from "../helpers/mfa";
import { ALLOWED_APP, atProvider, follow, location, NATIVE_APP, oauthEnvironments, startSignIn, type TestEnvironment } from "../helpers/oauth-flow";
import type { LoopbackOidcProvider } from "../helpers/oidc-provider";

// RFC 7636 Appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const NATIVE_QUERY = `?_is_native=true&code_challenge=${CHALLENGE}&code_challenge_method=S256&redirect_url=${encodeURIComponent(NATIVE_APP)}`;
const TERMS = "https://app.example.com/terms";

let idp: LoopbackOidcProvider;
let open: TestEnvironment;
let consent: TestEnvironment;

beforeAll(async () => {
  const setup = await oauthEnvironments(2, [{}, { legal: { requireConsent: true, termsUrl: TERMS } }]);
  idp = setup.idp;
  [open, consent] = setup.environments as [TestEnvironment, TestEnvironment];
});

afterAll(async () => {
  await idp.close();
});

async function callbackFor(env: TestEnvironment, login: string, query = "") {
  const client = clientApi(env.publishableKey);
  const providerUrl = await startSignIn(client, query);
  return { client, callback: await atProvider(idp, providerUrl, login) };
}

describe("native apps: PKCE S256 and a one-time ticket", () => {
  it("the callback ends at {redirect_url}?ticket=; the app redeems it once with its verifier (RFC 7636 Appendix B) for sessionToken and accessToken; no cookie", async () => {
    const account = idp.addAccount({ email: uniqueEmail("native"), emailVerified: true });
    const { client, callback } = await callbackFor(open, account.sub, NATIVE_QUERY);
    const target = new URL(location(await follow(client, callback)));
    expect(`${target.protocol}//${target.host}`).toBe(NATIVE_APP);
    const ticket = target.searchParams.get("ticket") ?? "";
    expect(ticket.length).toBeGreaterThan(30);
    expect(client.jar.get("__gh_session")).toBeUndefined();

    const app = clientApi(open.publishableKey);
    const redeemed = await app.post("/auth/session/establish", { ticket, codeVerifier: VERIFIER });
    expect(redeemed.status, redeemed.text).toBe(200);
    expect(redeemed.body.sessionToken).toBeTruthy();
    expect(redeemed.body.accessToken).toBeTruthy();
    expect(redeemed.body.user.email).toBe(account.email);
    const [session] = await getDb().select().from(sessions).where(eq(sessions.userId, redeemed.body.user.id));
    expect(session?.amr).toEqual(["oauth"]);
    expectProblem(await app.post("/auth/session/establish", { ticket, codeVerifier: VERIFIER }), 400, "invalid_code");
  });

  it("a ticket redeemed with a wrong verifier fails and is burned", async () => {
    const account = idp.addAccount({ email: uniqueEmail("wrongv"), emailVerified: true });
    const { client, callback } = await callbackFor(open, account.sub, NATIVE_QUERY);
    const ticket = new URL(location(await follow(client, callback))).searchParams.get("ticket") ?? "";
    const app = clientApi(open.publishableKey);
    expect((await app.post("/auth/session/establish", { ticket, codeVerifier: "x".repeat(43) })).status).toBe(400);
    expectProblem(await app.post("/auth/session/establish", { ticket, codeVerifier: VERIFIER }), 400, "invalid_code");
  });

  it("a native sign-in of an MFA user still owes the second factor when the ticket is redeemed", async () => {
    const email = uniqueEmail("nmfa");
    const user = await createUser(open.api, { email, password: STRONG_PASSWORD });
    const { client: enrolled } = await signedInClient(open.publishableKey, email);
    await enrollTotp(enrolled, user.id);
    const account = idp.addAccount({ email, emailVerified: true });
    const { client, callback } = await callbackFor(open, account.sub, NATIVE_QUERY);
    const ticket = new URL(location(await follow(client, callback))).searchParams.get("ticket") ?? "";
    const redeemed = await clientApi(open.publishableKey).post("/auth/session/establish", { ticket, codeVerifier: VERIFIER });
    expect(redeemed.status, redeemed.text).toBe(200);
    expect(redeemed.body).toMatchObject({ status: "needs_second_factor" });
    expect(redeemed.body.sessionToken).toBeUndefined();
  });

  it("refuses plain, a missing challenge, a challenge on the web, and a native flow without an allowed redirect_url", async () => {
    const client = clientApi(open.publishableKey);
    const app = encodeURIComponent(NATIVE_APP);
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?_is_native=true&code_challenge=${CHALLENGE}&code_challenge_method=plain&redirect_url=${app}`), 400, "invalid_request");
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?_is_native=true&code_challenge=${CHALLENGE}&redirect_url=${app}`), 400, "invalid_request");
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?_is_native=true&code_challenge_method=S256&redirect_url=${app}`), 400, "invalid_request");
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?_is_native=true&code_challenge=short&code_challenge_method=S256&redirect_url=${app}`), 400, "invalid_request");
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?code_challenge=${CHALLENGE}&code_challenge_method=S256`), 400, "invalid_request");
    expectProblem(await client.get(`/auth/oauth2/idp/authorize?_is_native=true&code_challenge=${CHALLENGE}&code_challenge_method=S256`), 400, "invalid_request");
    const other = encodeURIComponent("evilapp://callback");
    const res = await client.get(`/auth/oauth2/idp/authorize?_is_native=true&code_challenge=${CHALLENGE}&code_challenge_method=S256&redirect_url=${other}`);
    expectProblem(res, 400, "invalid_request");
    expect(res.headers.get("location")).toBeNull();
  });

  it("regression (finding 1, native): the ticket goes only to the app's custom scheme, never to a web page, even an allowed one", async () => {
    const client = clientApi(open.publishableKey);
    const native = `?_is_native=true&code_challenge=${CHALLENGE}&code_challenge_method=S256&redirect_url=`;
    for (const page of [`${ALLOWED_APP}/any-page`, `${open.origin}/account`, `${new URL(publicUrl()).origin}/account?pk=${open.publishableKey}`, "/account"]) {
      const before = await getDb().select().from(oauthFlows).where(eq(oauthFlows.environmentId, open.environmentId));
      const res = await client.get(`/auth/oauth2/idp/authorize${native}${encodeURIComponent(page)}`);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res), page).toEqual(["redirect_url"]);
      expect(res.headers.get("location")).toBeNull();
      expect(await getDb().select().from(oauthFlows).where(eq(oauthFlows.environmentId, open.environmentId))).toHaveLength(before.length);
    }
    // The same pages stay fine for a web flow; the registered scheme for a native one.
    expect((await client.get(`/auth/oauth2/idp/authorize?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/any-page`)}`)).status).toBe(303);
    expect((await client.get(`/auth/oauth2/idp/authorize${native}${encodeURIComponent(`${NATIVE_APP}/done`)}`)).status).toBe(303);
  });

  it("a flow of one environment cannot be completed through another (tenant isolation)", async () => {
    const account = idp.addAccount({ email: uniqueEmail("tenant"), emailVerified: true });
    const { client, callback } = await callbackFor(open, account.sub);
    const res = await follow(client, callback, { "x-api-key": consent.publishableKey });
    expect(location(res)).toBe(`${consent.origin}/oauth-error?error=oauth_state_invalid`);
    expect(client.jar.get("__gh_session")).toBeUndefined();
    expect(location(await follow(client, callback))).toBe(`${open.origin}/account`);
  });

  it("a failed native flow ends at the app with error=", async () => {
    const { client, callback } = await callbackFor(open, idp.accounts.verified.sub, NATIVE_QUERY);
    callback.searchParams.set("code", "forged");
    const target = new URL(location(await follow(client, callback)));
    expect(target.searchParams.get("error")).toBe("oauth_failed");
    expect(target.searchParams.get("ticket")).toBeNull();
  });
});

describe("sign-up continuation when legal consent is required", () => {
  it("web: no user yet; the hosted consent page gets the token; GET shows what is pending; POST with consent creates user, identity, acceptance and session", async () => {
    const account = idp.addAccount({ email: uniqueEmail("consent"), emailVerified: true, givenName: "Cora" });
    const { client, callback } = await callbackFor(consent, account.sub, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/welcome`)}`);
    const arrived = await follow(client, callback);
    const target = new URL(location(arrived));
    expect(`${target.origin}${target.pathname}`).toBe(`${consent.origin}/sign-up/continue`);
    // The browser secret that binds the continuation: HttpOnly, Lax, sent to the consent page and to /_svc/auth/signup/continue.
    const secretCookie = arrived.headers.getSetCookie().find((line) => line.startsWith("gh_oauth_signup="));
    expect(secretCookie).toMatch(/HttpOnly/i);
    expect(secretCookie).toMatch(/SameSite=Lax/i);
    expect(secretCookie).toMatch(/;\s*Path=\/(;|$)/i);
    expect(secretCookie).toMatch(/Max-Age=600/i);
    expect(target.searchParams.get("redirect_url")).toBe(`${ALLOWED_APP}/welcome`);
    const token = target.searchParams.get("token") ?? "";
    expect(client.jar.get("__gh_session")).toBeUndefined();
    expect(await getDb().select().from(users).where(eq(users.email, account.email ?? ""))).toHaveLength(0);
    const secret = client.jar.get("gh_oauth_signup") ?? "";
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await getDb()
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.environmentId, consent.environmentId), eq(oneTimeCodes.purpose, "signup_continuation"), eq(oneTimeCodes.email, account.email ?? "")));
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored?.payload.browserHash).toBe(sha256(secret));

    const pending = await client.get(`/auth/signup/continue?token=${encodeURIComponent(token)}`);
    expect(pending.status, pending.text).toBe(200);
    expect(pending.body).toMatchObject({
      status: "pending",
      missingRequirements: ["legal_consent"],
      provider: { id: "idp", name: "Loopback IdP" },
      email: account.email,
      firstName: "Cora",
      requiresCodeVerifier: false,
      legal: { termsUrl: TERMS },
    });

    // The token alone (read from the URL, or sent in a login-CSRF link) finishes nothing in another browser,
    // nor with a cookie of its choosing; reading it there shows no more than before. The token stays good for its own browser.
    const stranger = clientApi(consent.publishableKey);
    expectProblem(await stranger.post("/auth/signup/continue", { token, legalConsentAccepted: true }), 400, "invalid_code");
    const forged = clientApi(consent.publishableKey);
    forged.jar.set("gh_oauth_signup", "F".repeat(43));
    expectProblem(await forged.post("/auth/signup/continue", { token, legalConsentAccepted: true }), 400, "invalid_code");
    expect((await stranger.get(`/auth/signup/continue?token=${encodeURIComponent(token)}`)).body).toEqual(pending.body);
    // The hosted consent page offers its form only to the browser that holds the cookie.
    const environment = await findEnvironment(getDb(), consent.environmentId);
    if (!environment) throw new Error("no environment");
    const pageRequest = (cookie: string) => requestContextOf(new Request(`${consent.origin}/sign-up/continue`, { headers: { cookie } }), "page");
    await expect(describeContinuation(getDb(), environment, token, pageRequest(""))).rejects.toMatchObject({ code: "invalid_code" });
    expect(await describeContinuation(getDb(), environment, token, pageRequest(`gh_oauth_signup=${secret}`))).toEqual(pending.body);

    expectProblem(await client.post("/auth/signup/continue", { token, legalConsentAccepted: false }), 422, "legal_consent_required");
    const done = await client.post("/auth/signup/continue", { token, legalConsentAccepted: true });
    expect(done.status, done.text).toBe(200);
    expect(done.body.session.status).toBe("ACTIVE");
    expect(done.body.accessToken).toBeTruthy();
    expect(done.body.sessionToken).toBeUndefined();
    expect(client.jar.get("__gh_session")).toBeTruthy();
    const userId = done.body.user.id;
    expect(done.body.user.email).toBe(account.email);
    expect(await getDb().select().from(legalAcceptances).where(eq(legalAcceptances.userId, userId))).toHaveLength(1);
    const [identity] = await getDb().select().from(userIdentities).where(eq(userIdentities.userId, userId));
    expect(identity).toMatchObject({ providerId: "idp", subject: account.sub });

    expectProblem(await client.post("/auth/signup/continue", { token, legalConsentAccepted: true }), 400, "invalid_code");
    expectProblem(await client.get(`/auth/signup/continue?token=${encodeURIComponent(token)}`), 400, "invalid_code");
    // The returning provider account signs in directly now.
    const again = await callbackFor(consent, account.sub);
    expect(location(await follow(again.client, again.callback))).toBe(`${consent.origin}/account`);
  });

  it("an existing user who has not accepted the terms signs in to a PENDING session and is sent to the hosted consent gate", async () => {
    const email = uniqueEmail("gate");
    await createUser(consent.api, { email, password: STRONG_PASSWORD });
    const account = idp.addAccount({ email, emailVerified: true });
    const { client, callback } = await callbackFor(consent, account.sub);
    expect(location(await follow(client, callback))).toBe(`${consent.origin}/consent`);
    const probe = await client.get("/client");
    expect(probe.body.authenticated).toBe(true);
    expect(JSON.stringify(probe.body)).toContain("LEGAL_ACCEPTANCE");
  });

  it("the token is stored hashed and is of this environment only", async () => {
    const account = idp.addAccount({ email: uniqueEmail("hash"), emailVerified: true });
    const { client, callback } = await callbackFor(consent, account.sub);
    const token = new URL(location(await follow(client, callback))).searchParams.get("token") ?? "";
    const rows = await getDb()
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.environmentId, consent.environmentId), eq(oneTimeCodes.purpose, "signup_continuation")));
    expect(JSON.stringify(rows)).not.toContain(token);
    expectProblem(await clientApi(open.publishableKey).get(`/auth/signup/continue?token=${encodeURIComponent(token)}`), 400, "invalid_code");
  });

  it("finalises exactly once under concurrency", async () => {
    const account = idp.addAccount({ email: uniqueEmail("race"), emailVerified: true });
    const { client, callback } = await callbackFor(consent, account.sub);
    const token = new URL(location(await follow(client, callback))).searchParams.get("token") ?? "";
    const secret = client.jar.get("gh_oauth_signup") ?? "";
    const results = await Promise.all(
      Array.from({ length: 8 }, () => {
        const tab = clientApi(consent.publishableKey);
        tab.jar.set("gh_oauth_signup", secret);
        return tab.post("/auth/signup/continue", { token, legalConsentAccepted: true });
      }),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expectProblem(res, 400, "invalid_code");
    expect(await getDb().select().from(users).where(eq(users.email, account.email ?? ""))).toHaveLength(1);
  });

  it("native: the app gets continuation_token; codeVerifier required; a wrong one burns the token; the right one returns sessionToken", async () => {
    const account = idp.addAccount({ email: uniqueEmail("nc"), emailVerified: true });
    const first = await callbackFor(consent, account.sub, NATIVE_QUERY);
    const target = new URL(location(await follow(first.client, first.callback)));
    expect(`${target.protocol}//${target.host}`).toBe(NATIVE_APP);
    const token = target.searchParams.get("continuation_token") ?? "";
    expect(first.client.jar.get("gh_oauth_signup")).toBeUndefined();
    const app = clientApi(consent.publishableKey);
    expect((await app.get(`/auth/signup/continue?token=${encodeURIComponent(token)}`)).body.requiresCodeVerifier).toBe(true);
    expectProblem(await app.post("/auth/signup/continue?_is_native=true", { token, legalConsentAccepted: true }), 400, "invalid_request");
    expectProblem(await app.post("/auth/signup/continue?_is_native=true", { token, legalConsentAccepted: true, codeVerifier: "x".repeat(43) }), 400, "invalid_code");
    expectProblem(await app.post("/auth/signup/continue?_is_native=true", { token, legalConsentAccepted: true, codeVerifier: VERIFIER }), 400, "invalid_code");

    const second = await callbackFor(consent, account.sub, NATIVE_QUERY);
    const retry = new URL(location(await follow(second.client, second.callback))).searchParams.get("continuation_token") ?? "";
    const done = await app.post("/auth/signup/continue?_is_native=true", { token: retry, legalConsentAccepted: true, codeVerifier: VERIFIER });
    expect(done.status, done.text).toBe(200);
    expect(done.body.sessionToken).toBeTruthy();
    expect(done.body.user.email).toBe(account.email);
  });

  it("hostile input answers 4xx problem+json", async () => {
    const app = clientApi(consent.publishableKey);
    expectProblem(await app.get("/auth/signup/continue"), 400, "invalid_request");
    expectProblem(await app.get(`/auth/signup/continue?token=${"x".repeat(300)}`), 400, "invalid_request");
    expectProblem(await app.post("/auth/signup/continue", { token: "nope", legalConsentAccepted: true }), 400, "invalid_code");
    expectProblem(await app.post("/auth/signup/continue", { token: "nope", legalConsentAccepted: "yes" }), 400, "invalid_request");
    expectProblem(await app.post("/auth/signup/continue", { token: "nope", legalConsentAccepted: true, extra: 1 }), 400, "invalid_request");
    expectProblem(await app.post("/auth/signup/continue", { token: "nope", legalConsentAccepted: true, codeVerifier: "short" }), 400, "invalid_request");
    expectProblem(await app.delete("/auth/signup/continue"), 405, "method_not_allowed");
  });
});

/** The OAuth flows (sign-in, link, reverify) a user has started. */
function flowsOf(userId: string) {
  return getDb().select().from(oauthFlows).where(eq(oauthFlows.userId, userId));
}

/** Starts a link flow as the hosted account page does: a plain form post from the environment's own origin. */
function startLink(client: ReturnType<typeof clientApi>, options: { provider?: string; query?: string; headers?: Record<string, string> } = {}) {
  const { provider = "idp", query = "", headers = {} } = options;
  return client.post(`/auth/oauth2/${provider}/link${query}`, undefined, { origin: open.origin, ...headers });
}

/** A new user with a password, signed in just now (so with a recent sign-in). */
async function signedInUser(tag: string) {
  const email = uniqueEmail(tag);
  const user = await createUser(open.api, { email, password: STRONG_PASSWORD });
  return { user, ...(await signedInClient(open.publishableKey, email)) };
}

describe("linking a provider account to the signed-in user", () => {
  async function linkFlow(client: ReturnType<typeof clientApi>, login: string, query = "?redirect_url=%2Faccount") {
    const providerUrl = location(await startLink(client, { query }));
    const callback = await atProvider(idp, providerUrl, login);
    const complete = location(await follow(client, callback));
    expect(new URL(complete).pathname).toBe("/_svc/auth/oauth2/link/complete");
    return { complete, callback };
  }

  it("callback → link/complete connects it, tells the owner, ends at redirect_url; the identity then signs in as the user", async () => {
    const email = uniqueEmail("linker");
    const user = await createUser(open.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(open.publishableKey, email);
    const account = idp.addAccount({ email: uniqueEmail("elsewhere"), emailVerified: false });
    const { complete } = await linkFlow(client, account.sub);
    expect(location(await follow(client, complete))).toBe(`${open.origin}/account`);
    const [identity] = await getDb().select().from(userIdentities).where(eq(userIdentities.subject, account.sub));
    expect(identity?.userId).toBe(user.id);
    expect((await latestEmail(email, "account_connected")).subject).toContain("Loopback IdP");
    const signIn = await callbackFor(open, account.sub);
    await follow(signIn.client, signIn.callback);
    expect((await signIn.client.get("/users/me")).body.id).toBe(user.id);
  });

  it("an account already connected to another user is refused with error=identity_already_linked", async () => {
    const taken = idp.addAccount({ email: uniqueEmail("taken"), emailVerified: true });
    const owner = await callbackFor(open, taken.sub);
    await follow(owner.client, owner.callback);
    const email = uniqueEmail("second");
    await createUser(open.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(open.publishableKey, email);
    const { complete } = await linkFlow(client, taken.sub, `?redirect_url=${encodeURIComponent(`${ALLOWED_APP}/settings`)}`);
    expect(location(await follow(client, complete))).toBe(`${ALLOWED_APP}/settings?error=identity_already_linked`);
  });

  it("needs a recent sign-in (403 reverification_required) and a session (401)", async () => {
    const email = uniqueEmail("stale");
    await createUser(open.api, { email, password: STRONG_PASSWORD });
    const { client, session } = await signedInClient(open.publishableKey, email);
    await ageSignIn(session.session.id);
    expectProblem(await startLink(client), 403, "reverification_required");
    expectProblem(await startLink(clientApi(open.publishableKey)), 401, "unauthorized");
    expectProblem(await clientApi(open.publishableKey).get("/auth/oauth2/link/complete?state=x"), 401, "unauthorized");
  });

  it("link and reverify refuse a start from another site (Sec-Fetch-Site: cross-site, 403 forbidden, no flow); reverify's GET passes same-origin, same-site, none and no header", async () => {
    const { user, client } = await signedInUser("xsite");
    for (const site of ["cross-site", "Cross-Site"]) {
      expectProblem(await client.get("/auth/oauth2/idp/link", { "sec-fetch-site": site }), 403, "forbidden");
      expectProblem(await startLink(client, { headers: { "sec-fetch-site": site } }), 403, "forbidden");
      expectProblem(await client.get("/auth/oauth2/idp/reverify", { "sec-fetch-site": site }), 403, "forbidden");
    }
    expect(await flowsOf(user.id)).toHaveLength(0);
    for (const site of ["same-origin", "same-site", "none"]) {
      expect(location(await client.get("/auth/oauth2/idp/reverify", { "sec-fetch-site": site })).startsWith(idp.issuer)).toBe(true);
    }
    expect(location(await client.get("/auth/oauth2/idp/reverify")).startsWith(idp.issuer)).toBe(true);
    expect(await flowsOf(user.id)).toHaveLength(4);
  });

  it("regression (issue 16, item 9): a cookie GET of link started a flow from a same-site page or a browser without Sec-Fetch-Site; now only same-origin or a bearer session may GET, no flow otherwise", async () => {
    const { user, client } = await signedInUser("get-link");
    const refused: Record<string, string>[] = [{ "sec-fetch-site": "same-site" }, { "sec-fetch-site": "none" }, {}];
    for (const headers of refused) {
      expectProblem(await client.get("/auth/oauth2/idp/link", headers), 403, "forbidden");
    }
    expect(await flowsOf(user.id)).toHaveLength(0);
    // A page of this very origin may still navigate there.
    expect(location(await client.get("/auth/oauth2/idp/link", { "sec-fetch-site": "same-origin" })).startsWith(idp.issuer)).toBe(true);
    // A native client's bearer session is no ambient credential: no other page can make a browser send it.
    const { token } = await openSession(open.environmentId, user.id);
    const native = clientApi(open.publishableKey, { headers: { authorization: `Bearer ${token}` } });
    expect(location(await native.get("/auth/oauth2/idp/link")).startsWith(idp.issuer)).toBe(true);
    expect(await flowsOf(user.id)).toHaveLength(2);
  });

  it("regression (issue 16, item 9): POST starts the flow from an allowed Origin; a sibling subdomain's post is 403 origin_not_allowed, no flow", async () => {
    const { user, client } = await signedInUser("post-link");
    const sibling = `https://evil.${new URL(open.origin).hostname}`;
    expectProblem(await startLink(client, { headers: { origin: sibling, "sec-fetch-site": "same-site" } }), 403, "origin_not_allowed");
    expect(await flowsOf(user.id)).toHaveLength(0);
    expect(location(await startLink(client, { query: "?redirect_url=%2Faccount", headers: { "sec-fetch-site": "same-origin" } })).startsWith(idp.issuer)).toBe(true);
    expect(await flowsOf(user.id)).toHaveLength(1);

    const documented = (await call("GET", "/api/openapi.json")).body.paths["/_svc/auth/oauth2/{provider}/link"];
    expect(documented.post.operationId).toBe("oauthLinkStart");
    expect(documented.post.responses["303"].headers.Location).toBeDefined();
    expect(documented.post.responses["403"].description).toContain("origin_not_allowed");
    expect(documented.get.description).toContain("same-origin");
  });

  it("regression (review #7): a cookie POST of link without an Origin header started a flow; now it needs Origin or Sec-Fetch-Site: same-origin (bearer clients need neither)", async () => {
    const { user, client } = await signedInUser("originless-link");
    for (const headers of [{}, { "sec-fetch-site": "same-site" }, { "sec-fetch-site": "none" }] as Record<string, string>[]) {
      expectProblem(await client.post("/auth/oauth2/idp/link", undefined, headers), 403, "forbidden");
    }
    expect(await flowsOf(user.id)).toHaveLength(0);
    // A page of this very origin that sent no Origin (an old browser) still says where it is.
    expect(location(await client.post("/auth/oauth2/idp/link", undefined, { "sec-fetch-site": "same-origin" })).startsWith(idp.issuer)).toBe(true);
    // The hosted page's form post carries the Origin, which the route kit checked.
    expect(location(await startLink(client)).startsWith(idp.issuer)).toBe(true);
    // A native client's bearer session is no ambient credential: no Origin needed.
    const { token } = await openSession(open.environmentId, user.id);
    const native = clientApi(open.publishableKey, { headers: { authorization: `Bearer ${token}` } });
    expect(location(await native.post("/auth/oauth2/idp/link")).startsWith(idp.issuer)).toBe(true);
    expect(await flowsOf(user.id)).toHaveLength(3);
  });

  it("link/complete refuses a flow started by another session of the same browser cookie, and a flow that is not a link", async () => {
    const email = uniqueEmail("two");
    await createUser(open.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(open.publishableKey, email);
    const { client: other } = await signedInClient(open.publishableKey, email);
    const account = idp.addAccount({ email: null });
    const { complete } = await linkFlow(client, account.sub);
    other.jar.set("gh_oauth", client.jar.get("gh_oauth") ?? "");
    expect(new URL(location(await follow(other, complete))).searchParams.get("error")).toBe("forbidden");
    expect(await getDb().select().from(userIdentities).where(eq(userIdentities.subject, account.sub))).toHaveLength(0);

    const signIn = await callbackFor(open, account.sub);
    signIn.client.jar.set("__gh_session", client.jar.get("__gh_session") ?? "");
    const asLink = new URL(signIn.callback.toString().replace("/oauth2/idp/callback", "/oauth2/link/complete"));
    expect(new URL(location(await follow(signIn.client, asLink))).searchParams.get("error")).toBe("oauth_state_invalid");
  });

  it("through PUBLIC_URL (no frontend host, no X-API-Key): pk names the environment at link and link/complete, the callback finds it from the flow", async () => {
    const email = uniqueEmail("public");
    const user = await createUser(open.api, { email, password: STRONG_PASSWORD });
    const { client } = await signedInClient(open.publishableKey, email);
    const publicOrigin = new URL(publicUrl()).origin;
    const browser = { "x-api-key": "", "x-forwarded-host": new URL(publicUrl()).host };
    const pk = `pk=${open.publishableKey}`;
    const providerUrl = new URL(location(await client.post(`/auth/oauth2/idp/link?${pk}`, undefined, { ...browser, origin: publicOrigin })));
    expect(providerUrl.searchParams.get("redirect_uri")).toBe(`${publicOrigin}/_svc/auth/oauth2/idp/callback`);
    const account = idp.addAccount({ email: null });
    const callback = await atProvider(idp, providerUrl.toString(), account.sub);
    const complete = new URL(location(await follow(client, callback, browser)));
    expect(complete.origin).toBe(publicOrigin);
    expect(complete.searchParams.get("pk")).toBe(open.publishableKey);
    expect(location(await follow(client, complete, browser))).toBe(`${publicOrigin}/account?${pk}`);
    const [identity] = await getDb().select().from(userIdentities).where(eq(userIdentities.subject, account.sub));
    expect(identity?.userId).toBe(user.id);

    const signIn = clientApi(open.publishableKey);
    const started = location(await signIn.get(`/auth/oauth2/idp/authorize?${pk}`, browser));
    const back = await atProvider(idp, started, account.sub);
    expect(location(await follow(signIn, back, browser))).toBe(`${publicOrigin}/account?${pk}`);
    expect((await signIn.get("/users/me")).body.id).toBe(user.id);
  });
});

describe("confirming it is you with a connected provider account (users without a password)", () => {
  /** A user who signed up with the provider account alone (no password), with an old sign-in. */
  async function providerOnlyUser() {
    const account = idp.addAccount({ email: uniqueEmail("oauth-only"), emailVerified: true });
    const { client, callback } = await callbackFor(open, account.sub);
    await follow(client, callback);
    const me = await client.get("/users/me");
    expect(me.status, me.text).toBe(200);
    const [session] = await getDb().select().from(sessions).where(eq(sessions.userId, me.body.id));
    if (!session) throw new Error("no session");
    await ageSignIn(session.id);
    return { account, client, userId: me.body.id as string, sessionId: session.id };
  }

  async function reverifyAs(client: ReturnType<typeof clientApi>, login: string) {
    const providerUrl = location(await client.get("/auth/oauth2/idp/reverify"));
    const complete = location(await follow(client, await atProvider(idp, providerUrl, login)));
    expect(new URL(complete).pathname).toBe("/_svc/auth/oauth2/reverify/complete");
    return location(await follow(client, complete));
  }

  it("the connected account signs in at the provider again: the session is reverified (amr gains oauth) and sensitive operations open", async () => {
    const { account, client, sessionId } = await providerOnlyUser();
    expectProblem(await startLink(client, { provider: "other" }), 403, "reverification_required");
    expect(await reverifyAs(client, account.sub)).toBe(`${open.origin}/account`);
    const [session] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
    expect(Date.now() - (session?.lastVerifiedAt.getTime() ?? 0)).toBeLessThan(60_000);
    expect(location(await startLink(client, { provider: "other" })).startsWith(idp.issuer)).toBe(true);
  });

  it("the provider is asked for a fresh sign-in (prompt=login, max_age=0); an id_token whose auth_time predates the flow opens nothing (review finding)", async () => {
    const { account, client, sessionId } = await providerOnlyUser();
    const providerUrl = new URL(location(await client.get("/auth/oauth2/idp/reverify")));
    expect(providerUrl.searchParams.get("prompt")).toBe("login");
    expect(providerUrl.searchParams.get("max_age")).toBe("0");
    idp.tamperIdTokens("auth_time");
    try {
      const complete = location(await follow(client, await atProvider(idp, providerUrl.toString(), account.sub)));
      expect(new URL(location(await follow(client, complete))).searchParams.get("error")).toBe("oauth_failed");
    } finally {
      idp.tamperIdTokens(null);
    }
    const [session] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
    expect(Date.now() - (session?.lastVerifiedAt.getTime() ?? 0)).toBeGreaterThan(30 * 60_000);
    // A sign-in flow is not held to it: auth_time is checked for reverification only.
    const signIn = await callbackFor(open, account.sub);
    expect(new URL(location(await follow(signIn.client, signIn.callback))).searchParams.get("error")).toBeNull();
  });

  it("another provider account (not connected to the user) opens nothing: error=forbidden", async () => {
    const { client, sessionId } = await providerOnlyUser();
    const stranger = idp.addAccount({ email: uniqueEmail("stranger"), emailVerified: true });
    expect(new URL(await reverifyAs(client, stranger.sub)).searchParams.get("error")).toBe("forbidden");
    const [session] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
    expect(Date.now() - (session?.lastVerifiedAt.getTime() ?? 0)).toBeGreaterThan(30 * 60_000);
    expectProblem(await startLink(client, { provider: "other" }), 403, "reverification_required");
  });

  it("a flow started by another session of the same user is refused; a user with two-step verification must use the code (403 forbidden)", async () => {
    const { account, client } = await providerOnlyUser();
    const providerUrl = location(await client.get("/auth/oauth2/idp/reverify"));
    const complete = location(await follow(client, await atProvider(idp, providerUrl, account.sub)));
    const second = await callbackFor(open, account.sub);
    await follow(second.client, second.callback);
    second.client.jar.set("gh_oauth", client.jar.get("gh_oauth") ?? "");
    expect(new URL(location(await follow(second.client, complete))).searchParams.get("error")).toBe("forbidden");

    const email = uniqueEmail("two-step");
    const user = await createUser(open.api, { email, password: STRONG_PASSWORD });
    const signedIn = await signedInClient(open.publishableKey, email);
    await enrollTotp(signedIn.client, user.id);
    expectProblem(await signedIn.client.get("/auth/oauth2/idp/reverify"), 403, "forbidden");
    expectProblem(await clientApi(open.publishableKey).get("/auth/oauth2/idp/reverify"), 401, "unauthorized");
  });
});
