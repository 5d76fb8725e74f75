import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { oneTimeCodes, sessions, users } from "@/db/schema";
import { randomToken, sha256 } from "@/lib/crypto/tokens";
import type { AuthMethod } from "@/lib/sessions/establish-session";
import { s256Challenge } from "@/lib/tickets/pkce";
import { call, expectProblem, problemFields, type ApiResponse } from "../helpers/api";
import { clientApi } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { issueTicketFor } from "../helpers/tickets";
import { hostBrowser, hostedEnvironment as hostedEnvironmentOn } from "../helpers/host-browser";
import { awayFromStepEdge, mfaEnvironment, mfaUser, totpCode } from "../helpers/mfa";

/** RFC 7636 Appendix B: the verifier and its S256 challenge. */
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
/** Another well-formed verifier, whose challenge is not RFC_CHALLENGE. */
const OTHER_VERIFIER = "x".repeat(43);

function ticketFor(
  environmentId: string,
  user: { id: string },
  options: { codeChallenge?: string | null; methods?: AuthMethod[]; parentSessionId?: string; binding?: string } = {},
) {
  return issueTicketFor(environmentId, user.id, {
    methods: options.methods ?? ["oauth"],
    codeChallenge: options.codeChallenge === undefined ? RFC_CHALLENGE : options.codeChallenge,
    parentSessionId: options.parentSessionId,
    binding: options.binding,
  });
}

async function userSessions(userId: string) {
  return getDb().select().from(sessions).where(eq(sessions.userId, userId));
}

function redeem(publishableKey: string, body: unknown, headers: Record<string, string> = {}) {
  return clientApi(publishableKey).post("/auth/session/establish", body, headers);
}

/** An environment with room for a test's many redemptions from one IP, and a user in it. */
async function setup() {
  const env = await mfaEnvironment();
  const user = await createUser(env.api, { email: uniqueEmail("ticket"), password: STRONG_PASSWORD });
  return { ...env, user };
}

function expectSessionToken(res: ApiResponse) {
  expect(res.status, res.text).toBe(200);
  expect(res.body.session.status).toBe("ACTIVE");
  expect(res.body.sessionToken).toEqual(expect.any(String));
  expect(res.body.accessToken).toEqual(expect.any(String));
}

describe("POST /_svc/auth/session/establish (native ticket + PKCE)", () => {
  it("accepts the RFC 7636 Appendix B vector: sessionToken and accessToken, the bearer works, amr from the ticket", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    const res = await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER });
    expectSessionToken(res);
    expect(res.body.user.id).toBe(user.id);
    const me = await call("GET", "/_svc/users/me", { headers: { "x-api-key": publishableKey, authorization: `Bearer ${res.body.sessionToken}` } });
    expect(me.status, me.text).toBe(200);
    expect(me.body.id).toBe(user.id);
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, res.body.session.id));
    expect(row).toMatchObject({ amr: ["oauth"], aal: 1, parentSessionId: null });
  });

  it("stores only the ticket's hash, with a 60-second lifetime", async () => {
    const { environmentId, user } = await setup();
    const before = Date.now();
    const ticket = await ticketFor(environmentId, user);
    const rows = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    const row = rows.find((candidate) => candidate.purpose === "session_ticket");
    expect(row?.tokenHash).toBe(sha256(ticket));
    expect(JSON.stringify(rows)).not.toContain(ticket);
    const lifetime = (row?.expiresAt.getTime() ?? 0) - before;
    expect(lifetime).toBeGreaterThan(55_000);
    expect(lifetime).toBeLessThanOrEqual(61_000);
  });

  it("a wrong verifier fails (400 invalid_code) and burns the ticket: the right one fails after it", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: OTHER_VERIFIER }), 400, "invalid_code");
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("the plain method does not exist: a challenge equal to the verifier is refused", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user, { codeChallenge: OTHER_VERIFIER });
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: OTHER_VERIFIER }), 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("a missing or malformed verifier is 400 invalid_request naming the field, and leaves the ticket usable", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    for (const body of [{ ticket }, { ticket, codeVerifier: "short" }, { ticket, codeVerifier: `${RFC_VERIFIER}!` }, { ticket, codeVerifier: "a".repeat(129) }]) {
      const res = await redeem(publishableKey, body);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res)).toEqual(["codeVerifier"]);
    }
    const missingTicket = await redeem(publishableKey, { codeVerifier: RFC_VERIFIER });
    expectProblem(missingTicket, 400, "invalid_request");
    expect(problemFields(missingTicket)).toEqual(["ticket"]);
    expectSessionToken(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }));
  });

  it("hostile input is 4xx problem+json, never a 500", async () => {
    const { publishableKey } = await setup();
    for (const body of [null, [], "ticket", { ticket: 5, codeVerifier: RFC_VERIFIER }, { ticket: "a".repeat(300), codeVerifier: RFC_VERIFIER }, { ticket: "t", codeVerifier: RFC_VERIFIER, extra: 1 }, { ticket: "\u0000", codeVerifier: RFC_VERIFIER }]) {
      const res = await redeem(publishableKey, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    expectProblem(await redeem(publishableKey, { ticket: "' or 1=1 --", codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    const malformed = await call("POST", "/_svc/auth/session/establish", { rawBody: "{", headers: { "x-api-key": publishableKey, "content-type": "application/json" } });
    expectProblem(malformed, 400, "invalid_request");
  });

  it("a ticket is redeemed once: the replay is 400 invalid_code", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    expectSessionToken(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }));
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(1);
  });

  it("10 concurrent redemptions of one ticket: exactly one session", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    const results = await Promise.all(Array.from({ length: 10 }, () => redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of results.filter((candidate) => candidate.status !== 200)) expectProblem(res, 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(1);
  });

  it("an expired ticket (past its 60 s) is 400 invalid_code and opens nothing", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    await getDb()
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.tokenHash, sha256(ticket)));
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("a web ticket (no challenge) is refused here whatever the verifier: it would be PKCE in name only", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const ticket = await ticketFor(environmentId, user, { codeChallenge: null });
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("tenant isolation: another environment's ticket is 400 invalid_code and stays unspent", async () => {
    const { environmentId, user } = await setup();
    const other = await newEnvironment();
    const ticket = await ticketFor(environmentId, user);
    expectProblem(await redeem(other.publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    const [row] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenHash, sha256(ticket)));
    expect(row?.consumedAt).toBeNull();
  });

  it("a banned user is 403 user_banned; a deleted user's ticket is gone (400 invalid_code)", async () => {
    const { publishableKey, environmentId, api, user } = await setup();
    const ticket = await ticketFor(environmentId, user);
    expect((await api.post(`/users/${user.id}/ban`)).status).toBe(200);
    expectProblem(await redeem(publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 403, "user_banned");
    expect(await userSessions(user.id)).toHaveLength(0);

    const doomed = await createUser(api, { email: uniqueEmail("doomed") });
    const doomedTicket = await ticketFor(environmentId, doomed);
    expect((await api.delete(`/users/${doomed.id}`)).status).toBe(200);
    expectProblem(await redeem(publishableKey, { ticket: doomedTicket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
  });

  it("an MFA user gets needs_second_factor and no session; the second factor then opens it (amr oauth + otp)", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    const before = (await userSessions(user.userId)).length;
    const ticket = await ticketFor(env.environmentId, { id: user.userId });
    const res = await redeem(env.publishableKey, { ticket, codeVerifier: RFC_VERIFIER });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe("needs_second_factor");
    expect(res.body).not.toHaveProperty("sessionToken");
    expect(res.body).not.toHaveProperty("accessToken");
    expect(res.headers.getSetCookie()).toEqual([]);
    expect(await userSessions(user.userId)).toHaveLength(before);

    await awayFromStepEdge();
    const verified = await clientApi(env.publishableKey).post("/auth/mfa/verify?_is_native=true", { mfaToken: res.body.mfaToken, code: totpCode(user.secret) });
    expectSessionToken(verified);
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, verified.body.session.id));
    expect(row).toMatchObject({ amr: ["oauth", "otp"], aal: 2 });
  });

  it("is documented in the OpenAPI document, with its errors", async () => {
    const doc = (await call("GET", "/api/openapi.json")).body;
    const post = doc.paths["/_svc/auth/session/establish"].post;
    expect(post.operationId).toBe("redeemNativeTicket");
    expect(post.requestBody.content["application/json"].schema).toBeDefined();
    expect(post.responses["400"].description).toContain("invalid_code");
    expect(post.responses["403"].description).toContain("user_banned");
    const get = doc.paths["/_svc/auth/session/establish"].get;
    expect(get.operationId).toBe("establishWebSession");
    expect(get.responses["303"].headers.Location).toBeDefined();
    expect(doc.paths["/_svc/auth/sync"].get.operationId).toBe("syncSatelliteSession");
  });
});

/** An environment on its own frontend host, and its origin. */
async function hostedEnvironment() {
  const env = await hostedEnvironmentOn(1);
  const [first] = env.hosts;
  if (!first) throw new Error("no host");
  return { ...env, ...first };
}

/**
 * A browser on `host` holding a sync nonce in its gh_sync cookie, as GET
 * /_svc/auth/sync/start leaves it, and the binding a ticket for it carries.
 */
function boundBrowser(host: string, nonce = randomToken()) {
  const browser = hostBrowser(host);
  browser.jar.set("gh_sync", nonce);
  return { browser, binding: s256Challenge(nonce), nonce };
}

/** A web ticket bound to a fresh browser on the environment's host: that browser, and the ticket. */
async function webTicket(env: { environmentId: string; host: string }, user: { id: string; email: string | null }, options: { methods?: AuthMethod[] } = {}) {
  const { browser, binding } = boundBrowser(env.host);
  const ticket = await ticketFor(env.environmentId, user, { ...options, codeChallenge: null, binding });
  return { browser, ticket };
}

describe("GET /_svc/auth/session/establish (browser ticket)", () => {
  it("sets a host-only session cookie on the host it is called on and 303s to the redirect_url", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    const { browser: page, ticket } = await webTicket(env, user);
    const res = await page.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${env.origin}/welcome?x=1`)}`);
    expect(res.status, res.text).toBe(303);
    expect(res.headers.get("location")).toBe(`${env.origin}/welcome?x=1`);
    const cookie = res.headers.getSetCookie().find((value) => value.startsWith("__gh_session="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).not.toMatch(/Domain=/i);
    // The nonce is spent with its ticket.
    expect(res.headers.getSetCookie().find((value) => value.startsWith("gh_sync="))).toMatch(/Max-Age=0/i);
    expect(page.jar.has("gh_sync")).toBe(false);
    const me = await page.get("/_svc/users/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body.id).toBe(user.id);
    // Replayed: back to the target with the reason, no session (only the nonce cleared).
    const replay = await boundBrowser(env.host).browser.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${env.origin}/welcome`)}`);
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe(`${env.origin}/welcome?error=invalid_code`);
    expect(replay.headers.getSetCookie()).toEqual(["gh_sync=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"]);
  });

  it("login CSRF: a ticket bound to another browser's nonce opens nothing, and is spent", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    const { browser: asker, ticket } = await webTicket(env, user);
    const target = encodeURIComponent(`${env.origin}/x`);
    for (const victim of [boundBrowser(env.host).browser, hostBrowser(env.host)]) {
      const res = await victim.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${target}`);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`${env.origin}/x?error=invalid_code`);
      expect(res.headers.getSetCookie().some((value) => value.startsWith("__gh_session="))).toBe(false);
      expect((await victim.get("/_svc/users/me")).status).toBe(401);
    }
    // One guess per ticket: the browser it was bound to comes too late.
    const late = await asker.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${target}`);
    expect(late.headers.get("location")).toBe(`${env.origin}/x?error=invalid_code`);
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("a web ticket issued with no binding opens nothing, whatever nonce the browser holds", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    const ticket = await ticketFor(env.environmentId, user, { codeChallenge: null });
    const res = await boundBrowser(env.host).browser.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${env.origin}/x`)}`);
    expect(res.headers.get("location")).toBe(`${env.origin}/x?error=invalid_code`);
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("over https the nonce counts only from __Host-gh_sync: a gh_sync cookie (a sibling subdomain may plant one) is ignored", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    const nonce = randomToken();
    const establish = async (cookie: string) => {
      const ticket = await ticketFor(env.environmentId, user, { codeChallenge: null, binding: s256Challenge(nonce) });
      return call("GET", `/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${env.origin}/x`)}`, {
        headers: { host: env.host, accept: "text/html", "x-forwarded-proto": "https", cookie },
      });
    };
    const planted = await establish(`gh_sync=${nonce}`);
    expect(planted.headers.get("location")).toBe(`${env.origin}/x?error=invalid_code`);
    expect(await userSessions(user.id)).toHaveLength(0);
    const hostOnly = await establish(`__Host-gh_sync=${nonce}`);
    expect(hostOnly.headers.get("location")).toBe(`${env.origin}/x`);
    const cleared = hostOnly.headers.getSetCookie().find((value) => value.startsWith("__Host-gh_sync="));
    expect(cleared).toMatch(/Max-Age=0/i);
    expect(cleared).toMatch(/Secure/i);
    expect(cleared).toMatch(/Path=\//i);
    expect(await userSessions(user.id)).toHaveLength(1);
  });

  it("never follows a redirect_url outside the environment: the home URL instead", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    for (const evil of ["https://evil.example/steal", "//evil.example/x", "javascript:alert(1)", `${env.origin}@evil.example/`]) {
      const { browser, ticket } = await webTicket(env, user);
      const res = await browser.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(evil)}`);
      expect(res.status).toBe(303);
      expect(new URL(res.headers.get("location") ?? "").origin, evil).toBe(env.origin);
    }
  });

  it("a native ticket is worthless at the GET without its verifier, and is burned", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    const ticket = await ticketFor(env.environmentId, user);
    const res = await hostBrowser(env.host).get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${env.origin}/a`)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${env.origin}/a?error=invalid_code`);
    expect(res.headers.getSetCookie()).toEqual([]);
    expectProblem(await redeem(env.publishableKey, { ticket, codeVerifier: RFC_VERIFIER }), 400, "invalid_code");
    expect(await userSessions(user.id)).toHaveLength(0);
  });

  it("10 concurrent browser redemptions: exactly one session cookie", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("web") });
    const nonce = randomToken();
    const ticket = await ticketFor(env.environmentId, user, { codeChallenge: null, binding: s256Challenge(nonce) });
    const results = await Promise.all(Array.from({ length: 10 }, () => boundBrowser(env.host, nonce).browser.get(`/_svc/auth/session/establish?ticket=${ticket}`)));
    const withCookie = results.filter((res) => res.headers.getSetCookie().some((value) => value.startsWith("__gh_session=")));
    expect(withCookie).toHaveLength(1);
    expect(results.every((res) => res.status === 303)).toBe(true);
    expect(results.filter((res) => res.headers.get("location")?.includes("error=invalid_code"))).toHaveLength(9);
    expect(await userSessions(user.id)).toHaveLength(1);
  });

  it("an MFA user goes to the hosted second-factor page with the challenge in an HttpOnly cookie, and no session", async () => {
    const env = await hostedEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    const before = (await userSessions(user.userId)).length;
    const { browser, ticket } = await webTicket(env, { id: user.userId, email: user.email });
    const target = `${env.origin}/after`;
    const res = await browser.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(target)}`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe(env.origin);
    expect(location.pathname).toBe("/second-factor");
    expect(location.searchParams.get("redirect_url")).toBe(target);
    expect(location.search).not.toContain("mfaToken");
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((value) => value.startsWith("__gh_session="))).toBe(false);
    const flow = cookies.find((value) => value.startsWith("gh_mfa="));
    expect(flow).toMatch(/HttpOnly/i);
    const parsed = JSON.parse(decodeURIComponent(flow?.split(";")[0]?.slice("gh_mfa=".length) ?? ""));
    expect(parsed).toMatchObject({ environmentId: env.environmentId, kind: "second_factor", factors: ["totp", "recovery_code"] });
    expect(await userSessions(user.userId)).toHaveLength(before);
    // The challenge is a real one: the second factor finishes the sign-in.
    await awayFromStepEdge();
    const verified = await clientApi(env.publishableKey).post("/auth/mfa/verify", { mfaToken: parsed.token, code: totpCode(user.secret) });
    expect(verified.status, verified.text).toBe(200);
  });

  it("no ticket (the primary had no session) goes on to redirect_url signed out; an oversized one is 400; an unknown one goes back with error=invalid_code", async () => {
    const env = await hostedEnvironment();
    const { browser } = boundBrowser(env.host);
    const missing = await browser.get(`/_svc/auth/session/establish?redirect_url=${encodeURIComponent(`${env.origin}/x?y=1`)}`);
    expect(missing.status).toBe(303);
    expect(missing.headers.get("location")).toBe(`${env.origin}/x?y=1`);
    expect(missing.headers.getSetCookie().some((value) => value.startsWith("__gh_session="))).toBe(false);
    expect(browser.jar.has("gh_sync")).toBe(false);
    const unknown = await hostBrowser(env.host).get(`/_svc/auth/session/establish?ticket=nope&redirect_url=${encodeURIComponent(`${env.origin}/x`)}`);
    expect(unknown.status).toBe(303);
    expect(unknown.headers.get("location")).toBe(`${env.origin}/x?error=invalid_code`);
    for (const query of [`ticket=${"a".repeat(300)}`, `ticket=x&redirect_url=${"a".repeat(3000)}`]) {
      expectProblem(await hostBrowser(env.host).get(`/_svc/auth/session/establish?${query}`), 400, "invalid_request");
    }
    const unknownHost = await call("GET", "/_svc/auth/session/establish?ticket=x", { headers: { host: "nobody.example.test" } });
    expectProblem(unknownHost, 401, "environment_not_found");
  });

  it("other methods are 405 with Allow", async () => {
    const res = await call("PUT", "/_svc/auth/session/establish");
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toContain("GET");
    expect(res.headers.get("allow")).toContain("POST");
  });
});

describe("a banned user's browser ticket", () => {
  it("goes back with error=user_banned and opens no session", async () => {
    const env = await hostedEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail("race") });
    const { browser, ticket } = await webTicket(env, user);
    await getDb()
      .update(users)
      .set({ status: "banned" })
      .where(and(eq(users.id, user.id), eq(users.environmentId, env.environmentId)));
    const res = await browser.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${env.origin}/x`)}`);
    expect(res.headers.get("location")).toBe(`${env.origin}/x?error=user_banned`);
    expect(await userSessions(user.id)).toHaveLength(0);
  });
});
