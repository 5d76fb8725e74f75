import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { publicUrl } from "@/lib/config/runtime";
import { events, oneTimeCodes, sessions, users } from "@/db/schema";
import { randomToken, sha256 } from "@/lib/crypto/tokens";
import { s256Challenge } from "@/lib/tickets/pkce";
import { call, expectProblem, problemFields } from "../helpers/api";
import { ageSignIn, type ClientApi } from "../helpers/client";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { hostBrowser, hostedEnvironment, type HostBrowser } from "../helpers/host-browser";
import { awayFromStepEdge, enrollTotp, totpCode } from "../helpers/mfa";

/**
 * Satellite sync across two frontend hosts of one environment: the satellite host
 * starts the handover (nonce cookie there), the primary host (where the user signed
 * in) hands it a ticket bound to that nonce, and the satellite opens its own
 * host-only session cookie, parented to the primary session. The hosts are
 * `*.localhost` names, where plain http stands in for https outside production.
 */

async function sessionRow(id: string) {
  const [row] = await getDb().select().from(sessions).where(eq(sessions.id, id));
  if (!row) throw new Error("no session row");
  return row;
}

/** Signs in on the primary host through the Client API; the browser keeps the cookie. */
async function signIn(browser: HostBrowser, email: string) {
  const res = await browser.post("/_svc/auth/login", { email, password: STRONG_PASSWORD });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.text}`);
  return res.body;
}

async function setup(hostCount = 2) {
  const env = await hostedEnvironment(hostCount, "localhost");
  const [primaryHost, satelliteHost] = env.hosts;
  if (!primaryHost || !satelliteHost) throw new Error("two hosts expected");
  const email = uniqueEmail("satellite");
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
  const primary = hostBrowser(primaryHost.host);
  const satellite = hostBrowser(satelliteHost.host);
  const signedIn = await signIn(primary, email);
  return { ...env, user, email, primary, satellite, primaryHost, satelliteHost, primarySessionId: signedIn.session.id as string };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** A URL's path and query: the browsers send the Host themselves. */
function pathOf(location: string | null): string {
  const url = new URL(location ?? "");
  return `${url.pathname}${url.search}`;
}

/**
 * The first two steps: /sync/start on the satellite browser `to` (nonce cookie
 * there), then /sync on the primary browser `from`; returns where the primary sends
 * the browser back (the satellite's establish, with `ticket` when signed in).
 */
async function handOver(t: Setup, from: HostBrowser, to: HostBrowser, back: string): Promise<string> {
  const started = await to.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(back)}`);
  expect(started.status, started.text).toBe(303);
  expect(new URL(started.headers.get("location") ?? "").origin).toBe(t.primaryHost.origin);
  const synced = await from.get(pathOf(started.headers.get("location")));
  expect(synced.status, synced.text).toBe(303);
  return synced.headers.get("location") ?? "";
}

/** The whole handover, from the primary browser `from` to the satellite browser `to`; returns the satellite's session id. */
async function sync(t: Setup, from: HostBrowser = t.primary, to: HostBrowser = t.satellite): Promise<string> {
  const back = `${t.satelliteHost.origin}/after-sync?page=2`;
  const location = new URL(await handOver(t, from, to, back));
  expect(`${location.origin}${location.pathname}`).toBe(`${t.satelliteHost.origin}/_svc/auth/session/establish`);
  expect(location.searchParams.get("ticket")).toEqual(expect.any(String));
  expect(location.searchParams.get("redirect_url")).toBe(back);
  const established = await to.get(pathOf(location.toString()));
  expect(established.status, established.text).toBe(303);
  expect(established.headers.get("location")).toBe(back);
  expect((await to.get("/_svc/client")).body.authenticated).toBe(true);
  return sessionIdOf(to);
}

/** A ticket from the primary browser for a made-up binding, as /sync issues it; with the nonce behind it. */
async function rawTicket(t: Setup, from: HostBrowser = t.primary) {
  const nonce = randomToken();
  const back = `${t.satelliteHost.origin}/_svc/auth/session/establish?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/x`)}`;
  const synced = await from.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(back)}&binding=${s256Challenge(nonce)}`);
  expect(synced.status, synced.text).toBe(303);
  const location = synced.headers.get("location") ?? "";
  return { nonce, location, ticket: new URL(location).searchParams.get("ticket") };
}

/** The session behind a browser's cookie, found by the token's hash as the server finds it. */
async function sessionIdOf(browser: HostBrowser): Promise<string> {
  const token = browser.jar.get("__gh_session");
  if (!token) throw new Error("no session cookie");
  const [row] = await getDb().select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, sha256(token)));
  if (!row) throw new Error("no session for the cookie");
  return row.id;
}

async function issuedTickets(userId: string): Promise<number> {
  return (await getDb().select().from(oneTimeCodes).where(and(eq(oneTimeCodes.userId, userId), eq(oneTimeCodes.purpose, "session_ticket")))).length;
}

/** /sync answers each target with 400 naming redirect_url and no Location; no ticket is issued for any. */
async function expectSyncRefuses(t: Setup, targets: string[]): Promise<void> {
  const binding = s256Challenge(randomToken());
  for (const target of targets) {
    const res = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(target)}&binding=${binding}`);
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res), target).toEqual(["redirect_url"]);
    expect(res.headers.get("location")).toBeNull();
  }
  expect(await issuedTickets(t.user.id)).toBe(0);
}

async function userSessionCount(userId: string): Promise<number> {
  return (await getDb().select().from(sessions).where(eq(sessions.userId, userId))).length;
}

async function alive(browser: HostBrowser): Promise<boolean> {
  return (await browser.get("/_svc/users/me")).status === 200;
}

describe("GET /_svc/auth/sync and the satellite's GET /_svc/auth/session/establish", () => {
  it("a satellite host gets its own session for the same user, parented to the primary session", async () => {
    const t = await setup();
    const satelliteSessionId = await sync(t);
    expect(satelliteSessionId).not.toBe(t.primarySessionId);
    const me = await t.satellite.get("/_svc/users/me");
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(t.user.id);
    const [primaryRow, satelliteRow] = [await sessionRow(t.primarySessionId), await sessionRow(satelliteSessionId)];
    expect(satelliteRow.parentSessionId).toBe(t.primarySessionId);
    expect(satelliteRow.amr).toEqual(primaryRow.amr);
    expect(satelliteRow.expiresAt.getTime()).toBeLessThanOrEqual(primaryRow.expiresAt.getTime());
    // The cookies are host-only: neither browser holds the other's token.
    expect(t.satellite.jar.get("__gh_session")).not.toBe(t.primary.jar.get("__gh_session"));
  });

  it("logout on the primary ends the satellite's session (reason primary_session_ended)", async () => {
    const t = await setup();
    const satelliteSessionId = await sync(t);
    expect((await t.primary.post("/_svc/auth/logout")).status).toBe(200);
    expect(await alive(t.primary)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
    expect((await sessionRow(satelliteSessionId)).status).toBe("revoked");
    const [event] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.subjectId, t.user.id), eq(events.type, "session.revoked"), eq(events.data, { sessionId: satelliteSessionId, reason: "primary_session_ended" })));
    expect(event).toBeDefined();
  });

  it("logout on the satellite ends only the satellite", async () => {
    const t = await setup();
    await sync(t);
    expect((await t.satellite.post("/_svc/auth/logout")).status).toBe(200);
    expect(await alive(t.satellite)).toBe(false);
    expect(await alive(t.primary)).toBe(true);
  });

  it("the Server API's revoke-all ends primary and satellite; revoking the primary alone ends its satellite too", async () => {
    const t = await setup();
    await sync(t);
    expect((await t.api.delete(`/users/${t.user.id}/sessions`)).status).toBe(200);
    expect(await alive(t.primary)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);

    await signIn(t.primary, t.email);
    const primarySessionId = await sessionIdOf(t.primary);
    await sync(t);
    expect((await t.api.delete(`/users/${t.user.id}/sessions/${primarySessionId}`)).status).toBe(204);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("revoke-others from another device ends primary and satellite; from the satellite it keeps that satellite and its primary only", async () => {
    const t = await setup();
    await sync(t);
    const otherSatellite = hostBrowser(t.satelliteHost.host);
    await sync(t, t.primary, otherSatellite);
    const elsewhere = hostBrowser(t.primaryHost.host);
    await signIn(elsewhere, t.email);
    expect((await t.satellite.post("/_svc/users/me/sessions/revoke-others")).status).toBe(200);
    expect(await alive(t.satellite)).toBe(true);
    expect(await alive(t.primary)).toBe(true);
    expect(await alive(elsewhere)).toBe(false);
    // Another satellite of the same primary may be in anyone's browser: it goes.
    expect(await alive(otherSatellite)).toBe(false);

    await signIn(elsewhere, t.email);
    expect((await elsewhere.post("/_svc/users/me/sessions/revoke-others")).status).toBe(200);
    expect(await alive(elsewhere)).toBe(true);
    expect(await alive(t.primary)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("regression (finding 3): revoke-others from the primary ends its satellites, one redeemed by another client included", async () => {
    const t = await setup();
    await sync(t);
    // A thief's browser, redeeming a ticket handed over for its nonce.
    const thief = hostBrowser(t.satelliteHost.host);
    await sync(t, t.primary, thief);
    expect(await alive(thief)).toBe(true);
    const revoked = await t.primary.post("/_svc/users/me/sessions/revoke-others");
    expect(revoked.status, revoked.text).toBe(200);
    expect(await alive(t.primary)).toBe(true);
    expect(await alive(thief)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
    // The primary's own browser syncs again when it needs to.
    await sync(t);
    expect(await alive(t.satellite)).toBe(true);
  });

  it("regression (finding 3): a password change on the primary ends every other sign-in and all its satellites; a ban ends all", async () => {
    const t = await setup();
    await sync(t);
    const thief = hostBrowser(t.satelliteHost.host);
    await sync(t, t.primary, thief);
    const laptop = hostBrowser(t.primaryHost.host);
    const laptopSatellite = hostBrowser(t.satelliteHost.host);
    await signIn(laptop, t.email);
    await sync(t, laptop, laptopSatellite);
    const changed = await t.primary.post("/_svc/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "another correct horse battery" });
    expect(changed.status, changed.text).toBe(200);
    expect(await alive(laptop)).toBe(false);
    expect(await alive(laptopSatellite)).toBe(false);
    expect(await alive(thief)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
    expect(await alive(t.primary)).toBe(true);

    await sync(t);
    expect((await t.api.post(`/users/${t.user.id}/ban`)).status).toBe(200);
    expect(await alive(t.primary)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("a ticket whose primary session ended before redemption opens nothing", async () => {
    const t = await setup();
    const location = await handOver(t, t.primary, t.satellite, `${t.satelliteHost.origin}/x`);
    await t.primary.post("/_svc/auth/logout");
    const res = await t.satellite.get(pathOf(location));
    expect(res.headers.get("location")).toBe(`${t.satelliteHost.origin}/x?error=invalid_code`);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("regression (finding 8): a satellite lives only while its primary is not idle, and an idle primary hands over nothing", async () => {
    const t = await setup();
    expect((await t.api.patch("/environment", { sessions: { inactivitySeconds: 600 } })).status).toBe(200);
    await sync(t);
    expect(await alive(t.satellite)).toBe(true);
    await getDb().update(sessions).set({ lastActiveAt: new Date(Date.now() - 3600_000) }).where(eq(sessions.id, t.primarySessionId));
    // The satellite's own activity keeps neither it nor its primary alive.
    expect(await alive(t.satellite)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
    expect(await alive(t.primary)).toBe(false);
    const location = await handOver(t, t.primary, hostBrowser(t.satelliteHost.host), `${t.satelliteHost.origin}/x`);
    expect(new URL(location).searchParams.get("ticket")).toBeNull();
  });

  it("regression (finding 8): a ticket handed over before its primary went idle opens nothing after", async () => {
    const t = await setup();
    expect((await t.api.patch("/environment", { sessions: { inactivitySeconds: 600 } })).status).toBe(200);
    const location = await handOver(t, t.primary, t.satellite, `${t.satelliteHost.origin}/x`);
    await getDb().update(sessions).set({ lastActiveAt: new Date(Date.now() - 3600_000) }).where(eq(sessions.id, t.primarySessionId));
    const res = await t.satellite.get(pathOf(location));
    expect(res.headers.get("location")).toBe(`${t.satelliteHost.origin}/x?error=invalid_code`);
    expect(await alive(t.satellite)).toBe(false);
    expect(await userSessionCount(t.user.id)).toBe(1);
  });

  it("regression guard: a logout racing the redemption never leaves a live satellite behind", async () => {
    for (let round = 0; round < 5; round++) {
      const t = await setup();
      const location = await handOver(t, t.primary, t.satellite, `${t.satelliteHost.origin}/x`);
      await Promise.all([t.primary.post("/_svc/auth/logout"), t.satellite.get(pathOf(location))]);
      const live = await getDb()
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, t.user.id), eq(sessions.status, "active")));
      expect(live).toEqual([]);
    }
  });

  it("regression guard: a satellite opened while revoke-others from the primary runs is not missed", async () => {
    const t = await setup();
    const satelliteSessionId = await sync(t);
    expect((await t.satellite.post("/_svc/auth/logout")).status).toBe(200);
    // A redemption in flight: it holds the primary FOR SHARE while its satellite is not yet committed.
    let revoking: Promise<unknown> = Promise.resolve();
    await getDb().transaction(async (tx) => {
      await tx.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, t.primarySessionId)).for("share");
      await tx.update(sessions).set({ status: "active", revokedAt: null }).where(eq(sessions.id, satelliteSessionId));
      revoking = t.primary.post("/_svc/users/me/sessions/revoke-others");
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    await revoking;
    expect((await sessionRow(satelliteSessionId)).status).toBe("revoked");
    expect(await alive(t.primary)).toBe(true);
  });

  it("without a session the browser goes back through the satellite's establish to redirect_url, signed out", async () => {
    const t = await setup();
    const stranger = hostBrowser(t.primaryHost.host);
    const strangerSatellite = hostBrowser(t.satelliteHost.host);
    const back = `${t.satelliteHost.origin}/after?x=1`;
    const location = await handOver(t, stranger, strangerSatellite, back);
    expect(new URL(location).searchParams.get("ticket")).toBeNull();
    const res = await strangerSatellite.get(pathOf(location));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(back);
    expect(strangerSatellite.jar.has("gh_sync")).toBe(false);
    expect(await alive(strangerSatellite)).toBe(false);
  });

  it("regression (issue 16, item 4): a PENDING session started a sync (the pending check never ran); now 403 session_pending naming the gate, no ticket row", async () => {
    const t = await setup();
    // Terms to accept since the user signed in: the primary session is PENDING on LEGAL_ACCEPTANCE.
    expect((await t.api.patch("/environment", { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } })).status).toBe(200);
    const started = await t.satellite.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/after`)}`);
    expect(started.status, started.text).toBe(303);
    // Code asking for JSON (a browser navigating is sent to the gate's page: below).
    const refused = await t.primary.get(pathOf(started.headers.get("location")), { accept: "application/json" });
    expectProblem(refused, 403, "session_pending");
    expect(refused.body.properties.currentGate).toEqual({ key: "LEGAL_ACCEPTANCE" });
    expect(refused.headers.get("location")).toBeNull();
    expect(await issuedTickets(t.user.id)).toBe(0);
    // Once the gate is cleared on the primary, the same browser hands its session over.
    expect((await t.primary.post("/_svc/auth/legal/accept")).status).toBe(200);
    await sync(t);
  });

  it("regression (review #8): a browser navigating to sync with a PENDING session was shown raw JSON 403; now 303 to its gate's hosted page, still no ticket", async () => {
    const t = await setup();
    expect((await t.api.patch("/environment", { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } })).status).toBe(200);
    const started = await t.satellite.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/after`)}`);
    const navigated = await t.primary.get(pathOf(started.headers.get("location")));
    expect(navigated.status, navigated.text).toBe(303);
    // On the primary's own host, where the session cookie lives: no pk, no ticket, nothing of the sync's target.
    expect(navigated.headers.get("location")).toBe(`${t.primaryHost.origin}/consent`);
    expect(navigated.headers.getSetCookie()).toEqual([]);
    expect(await issuedTickets(t.user.id)).toBe(0);
    // A browser's Accept header, as Chromium sends it for a navigation.
    const chromium = await t.primary.get(pathOf(started.headers.get("location")), {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    });
    expect(chromium.headers.get("location")).toBe(`${t.primaryHost.origin}/consent`);
    expect(await issuedTickets(t.user.id)).toBe(0);
    // Other gates have pages of their own: an unverified address goes to /verify-email.
    expect((await t.api.patch("/environment", { legal: { requireConsent: false } })).status).toBe(200);
    await getDb().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, t.user.id));
    expect((await t.primary.get(pathOf(started.headers.get("location")))).headers.get("location")).toBe(`${t.primaryHost.origin}/verify-email`);
    expect(await issuedTickets(t.user.id)).toBe(0);
  });

  it("redirect_url outside the environment is 400 invalid_request: nothing issued, nothing followed", async () => {
    const t = await setup();
    await expectSyncRefuses(t, ["https://evil.example/x", "//evil.example/x", "/relative/path", "javascript:alert(1)", `${t.satelliteHost.origin}@evil.example/`, "http://evil.example\\@x", ""]);
    expectProblem(await t.primary.get(`/_svc/auth/sync?binding=${s256Challenge(randomToken())}`), 400, "invalid_request");
    expect(await issuedTickets(t.user.id)).toBe(0);
  });

  it("regression (finding 1): a custom scheme or a plain-http origin is refused even when allowed: 400, no ticket row", async () => {
    const t = await setup();
    const put = await t.api.put("/allowed-origins", { origins: ["myapp://callback", "http://plain.example.org", "https://shop.example.org"] });
    expect(put.status, put.text).toBe(200);
    await expectSyncRefuses(t, ["myapp://callback/x", "http://plain.example.org/cb"]);
  });

  it("binding is required: missing or malformed is 400 naming it, nothing issued", async () => {
    const t = await setup();
    const back = encodeURIComponent(`${t.satelliteHost.origin}/x`);
    for (const query of [`redirect_url=${back}`, `redirect_url=${back}&binding=short`, `redirect_url=${back}&binding=${"a".repeat(42)}!`, `redirect_url=${back}&binding=${"a".repeat(44)}`]) {
      const res = await t.primary.get(`/_svc/auth/sync?${query}`);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res), query).toEqual(["binding"]);
    }
    expect(await issuedTickets(t.user.id)).toBe(0);
  });

  it("regression (finding 1): /sync hands a ticket only to another frontend host's establish: any other page is 400, no ticket row", async () => {
    const t = await setup();
    const shop = "https://shop.example.org";
    expect((await t.api.put("/allowed-origins", { origins: [shop] })).status).toBe(200);
    const establish = `${t.satelliteHost.origin}/_svc/auth/session/establish`;
    const back = encodeURIComponent(`${t.satelliteHost.origin}/x`);
    await expectSyncRefuses(t, [
      `${t.satelliteHost.origin}/any-page`,
      `${t.satelliteHost.origin}/_svc/auth/session/establish/x?redirect_url=${back}`,
      `${shop}/cb`,
      `${shop}/_svc/auth/session/establish?redirect_url=${back}`,
      // The host the request came on needs no sync; and PUBLIC_URL serves every environment.
      `${t.primaryHost.origin}/_svc/auth/session/establish?redirect_url=${back}`,
      `${new URL(publicUrl()).origin}/_svc/auth/session/establish?pk=${t.publishableKey}&redirect_url=${back}`,
      // Establish must not be pointed at another environment, nor carry parameters of the caller's.
      `${establish}?redirect_url=${back}&pk=${t.publishableKey}`,
      `${establish}?redirect_url=${back}&ticket=planted`,
      `${establish}?redirect_url=${back}&redirect_url=${encodeURIComponent("https://evil.example/")}`,
      `${establish}?redirect_url=${back}#frag`,
      // Its own redirect_url follows the rules of /sync/start.
      `${establish}?redirect_url=${encodeURIComponent("https://evil.example/x")}`,
    ]);
  });

  it("finding 1: a victim sent to /sync with the attacker's binding burns the ticket at establish; the attacker's nonce redeems nothing", async () => {
    const t = await setup();
    // The attacker's own nonce cookie on the satellite, and its hash as the binding.
    const attacker = hostBrowser(t.satelliteHost.host);
    await attacker.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent("/x")}`);
    const binding = s256Challenge(attacker.jar.get("gh_sync") ?? "");
    const establish = `${t.satelliteHost.origin}/_svc/auth/session/establish?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/any-page`)}`;
    const synced = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(establish)}&binding=${binding}`);
    expect(synced.status, synced.text).toBe(303);
    const location = synced.headers.get("location") ?? "";
    expect(location.startsWith(`${t.satelliteHost.origin}/_svc/auth/session/establish?`)).toBe(true);
    // The victim's browser follows the redirect: no nonce there, so the ticket is spent and the app page gets no ticket.
    const landed = await t.satellite.get(pathOf(location));
    expect(landed.headers.get("location")).toBe(`${t.satelliteHost.origin}/any-page?error=invalid_code`);
    const stolen = await attacker.get(pathOf(location));
    expect(stolen.headers.get("location")).toBe(`${t.satelliteHost.origin}/any-page?error=invalid_code`);
    expect(await alive(attacker)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("the ticket goes to the satellite's establish, bound to the binding, with the app's page as its redirect_url", async () => {
    const t = await setup();
    const binding = s256Challenge(randomToken());
    const back = `${t.satelliteHost.origin}/cb?x=1`;
    const establish = `${t.satelliteHost.origin}/_svc/auth/session/establish?redirect_url=${encodeURIComponent(back)}`;
    const res = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(establish)}&binding=${binding}`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${t.satelliteHost.origin}/_svc/auth/session/establish`);
    expect(location.searchParams.get("redirect_url")).toBe(back);
    const ticket = location.searchParams.get("ticket") ?? "";
    const [row] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenHash, sha256(ticket)));
    expect(row?.payload).toMatchObject({ parentSessionId: t.primarySessionId, codeChallenge: null, binding });
  });

  it("regression (finding 2): login CSRF — an attacker's ticket does not sign the victim's satellite browser in", async () => {
    const t = await setup();
    const attackerEmail = uniqueEmail("attacker");
    await createUser(t.api, { email: attackerEmail, password: STRONG_PASSWORD });
    const attacker = hostBrowser(t.primaryHost.host);
    await signIn(attacker, attackerEmail);
    // The attacker mints a ticket for a nonce of their own and sends the victim's browser to the satellite's establish.
    const { location } = await rawTicket(t, attacker);
    const victimSatellite = hostBrowser(t.satelliteHost.host);
    await victimSatellite.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/x`)}`);
    const res = await victimSatellite.get(pathOf(location));
    expect(res.headers.get("location")).toBe(`${t.satelliteHost.origin}/x?error=invalid_code`);
    expect(res.headers.getSetCookie().some((value) => value.startsWith("__gh_session="))).toBe(false);
    expect(await alive(victimSatellite)).toBe(false);
  });

  it("regression (finding 2): a ticket carried to another browser opens nothing and is spent", async () => {
    const t = await setup();
    const location = await handOver(t, t.primary, t.satellite, `${t.satelliteHost.origin}/x`);
    const other = hostBrowser(t.satelliteHost.host);
    await other.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/x`)}`);
    const res = await other.get(pathOf(location));
    expect(res.headers.get("location")).toBe(`${t.satelliteHost.origin}/x?error=invalid_code`);
    expect(await alive(other)).toBe(false);
    const late = await t.satellite.get(pathOf(location));
    expect(late.headers.get("location")).toBe(`${t.satelliteHost.origin}/x?error=invalid_code`);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("a satellite's own sync hands a ticket parented to the primary, so the primary's end reaches every host", async () => {
    const t = await setup(3);
    await sync(t);
    const thirdHost = t.hosts[2];
    if (!thirdHost) throw new Error("three hosts expected");
    // From the satellite's session, on its host, to the establish of another satellite host.
    const third = hostBrowser(thirdHost.host);
    const thirdSessionId = await sync({ ...t, satelliteHost: thirdHost }, t.satellite, third);
    expect((await sessionRow(thirdSessionId)).parentSessionId).toBe(t.primarySessionId);
    await t.primary.post("/_svc/auth/logout");
    expect(await alive(third)).toBe(false);
  });

  it("the satellite is no more recently verified than the primary: sensitive operations still ask for reverification", async () => {
    const t = await setup();
    await ageSignIn(t.primarySessionId);
    const satelliteSessionId = await sync(t);
    expect((await sessionRow(satelliteSessionId)).lastVerifiedAt.getTime()).toBe((await sessionRow(t.primarySessionId)).lastVerifiedAt.getTime());
    const res = await t.satellite.post("/_svc/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "yet another horse battery" });
    expectProblem(res, 403, "reverification_required");
  });

  it("a satellite continues its primary's sign-in: a second factor enabled since is not asked again, and the cascade still holds", async () => {
    const t = await setup();
    const onPrimary = { post: (path: string, body?: unknown) => t.primary.post(`/_svc${path}`, body) } as unknown as ClientApi;
    await enrollTotp(onPrimary, t.user.id);
    const satelliteSessionId = await sync(t);
    expect(await sessionRow(satelliteSessionId)).toMatchObject({ parentSessionId: t.primarySessionId, amr: ["pwd"] });
    expect(t.satellite.jar.has("gh_mfa")).toBe(false);
    await t.primary.post("/_svc/auth/logout");
    expect(await alive(t.satellite)).toBe(false);
  });

  it("a primary signed in with two factors gives the satellite a session straight away (amr carried, AAL2)", async () => {
    const t = await setup();
    // enrollTotp needs only `post`, on the Client API's paths; the primary host's browser serves.
    const onPrimary = { post: (path: string, body?: unknown) => t.primary.post(`/_svc${path}`, body) } as unknown as ClientApi;
    const { secret } = await enrollTotp(onPrimary, t.user.id);
    const mfaBrowser = hostBrowser(t.primaryHost.host);
    const login = await mfaBrowser.post("/_svc/auth/login", { email: t.email, password: STRONG_PASSWORD });
    expect(login.body.status).toBe("needs_second_factor");
    await awayFromStepEdge();
    const verified = await mfaBrowser.post("/_svc/auth/mfa/verify", { mfaToken: login.body.mfaToken, code: totpCode(secret) });
    expect(verified.status, verified.text).toBe(200);
    const satelliteSessionId = await sync({ ...t, primary: mfaBrowser }, mfaBrowser);
    expect(await sessionRow(satelliteSessionId)).toMatchObject({ amr: ["pwd", "otp"], aal: 2 });
  });
});

describe("GET /_svc/auth/sync/start (on the satellite host)", () => {
  it("leaves a 5-minute HttpOnly nonce cookie here and sends the browser to the primary's /sync with its hash and this host's establish", async () => {
    const t = await setup();
    const back = `${t.satelliteHost.origin}/page?x=1`;
    const res = await t.satellite.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(back)}`);
    expect(res.status, res.text).toBe(303);
    const cookie = res.headers.getSetCookie().find((value) => value.startsWith("gh_sync=")) ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(cookie).toMatch(/Max-Age=300/i);
    expect(cookie).not.toMatch(/Domain=/i);
    const nonce = t.satellite.jar.get("gh_sync") ?? "";
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const location = new URL(res.headers.get("location") ?? "");
    expect(`${location.origin}${location.pathname}`).toBe(`${t.primaryHost.origin}/_svc/auth/sync`);
    expect(location.searchParams.get("binding")).toBe(s256Challenge(nonce));
    expect(location.searchParams.get("redirect_url")).toBe(`${t.satelliteHost.origin}/_svc/auth/session/establish?redirect_url=${encodeURIComponent(back)}`);
    // A path stays on this host.
    const path = await hostBrowser(t.satelliteHost.host).get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent("/dashboard")}`);
    const nested = new URL(new URL(path.headers.get("location") ?? "").searchParams.get("redirect_url") ?? "");
    expect(nested.searchParams.get("redirect_url")).toBe(`${t.satelliteHost.origin}/dashboard`);
  });

  it("over https the cookie is __Host-gh_sync, Secure", async () => {
    const t = await setup();
    const res = await call("GET", `/_svc/auth/sync/start?redirect_url=${encodeURIComponent("/x")}`, {
      headers: { host: t.satelliteHost.host, accept: "text/html", "x-forwarded-proto": "https" },
    });
    expect(res.status, res.text).toBe(303);
    const [cookie = ""] = res.headers.getSetCookie();
    expect(cookie).toMatch(/^__Host-gh_sync=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/Secure/i);
    expect(cookie).toMatch(/Path=\/(;|$)/);
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it("is 400 on the primary host itself and off the environment's frontend hosts; nothing set", async () => {
    const t = await setup();
    const query = `redirect_url=${encodeURIComponent("/x")}`;
    const onPrimary = await t.primary.get(`/_svc/auth/sync/start?${query}`);
    expectProblem(onPrimary, 400, "invalid_request");
    expect(onPrimary.headers.getSetCookie()).toEqual([]);
    const viaPublicUrl = await call("GET", `/_svc/auth/sync/start?${query}`, { headers: { accept: "text/html", "x-api-key": t.publishableKey } });
    expectProblem(viaPublicUrl, 400, "invalid_request");
    expect(viaPublicUrl.headers.getSetCookie()).toEqual([]);
  });

  it("redirect_url must be a path here or an https (loopback http) page of the environment: else 400 naming it, nothing set", async () => {
    const t = await setup();
    expect((await t.api.put("/allowed-origins", { origins: ["myapp://callback", "http://plain.example.org"] })).status).toBe(200);
    for (const evil of ["myapp://callback/x", "http://plain.example.org/x", "https://evil.example/x", "//evil.example/x", "javascript:alert(1)", ""]) {
      const res = await t.satellite.get(`/_svc/auth/sync/start?redirect_url=${encodeURIComponent(evil)}`);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res), evil).toEqual(["redirect_url"]);
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expectProblem(await t.satellite.get("/_svc/auth/sync/start"), 400, "invalid_request");
    expectProblem(await t.satellite.get(`/_svc/auth/sync/start?redirect_url=${"a".repeat(3000)}`), 400, "invalid_request");
    // Fits here, but not once nested in the establish URL that /sync must accept.
    const long = await t.satellite.get(`/_svc/auth/sync/start?redirect_url=/${"a".repeat(2000)}`);
    expectProblem(long, 400, "invalid_request");
    expect(problemFields(long)).toEqual(["redirect_url"]);
  });

  it("is documented in the OpenAPI document; other methods are 405", async () => {
    const doc = (await call("GET", "/api/openapi.json")).body;
    const start = doc.paths["/_svc/auth/sync/start"].get;
    expect(start.operationId).toBe("startSatelliteSync");
    expect(start.responses["303"].headers.Location).toBeDefined();
    expect(start.responses["400"].description).toContain("invalid_request");
    const sync = doc.paths["/_svc/auth/sync"].get;
    expect(sync.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(expect.arrayContaining(["redirect_url", "binding"]));
    const res = await call("POST", "/_svc/auth/sync/start");
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toContain("GET");
  });
});
