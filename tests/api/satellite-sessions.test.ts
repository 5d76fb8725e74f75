import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, oneTimeCodes, sessions } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { expectProblem, problemFields } from "../helpers/api";
import { ageSignIn, type ClientApi } from "../helpers/client";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { hostBrowser, hostedEnvironment, type HostBrowser } from "../helpers/host-browser";
import { awayFromStepEdge, enrollTotp, totpCode } from "../helpers/mfa";

/**
 * Satellite sync across two frontend hosts of one environment: the primary host
 * (where the user signed in) hands a ticket to the satellite host, which opens its
 * own host-only session cookie, parented to the primary session.
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

async function setup() {
  const env = await hostedEnvironment(2);
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

/** The whole handover: sync on the primary, establish on the satellite; returns the satellite's session id. */
async function sync(t: Setup, from: HostBrowser = t.primary, to: HostBrowser = t.satellite): Promise<string> {
  const back = `${t.satelliteHost.origin}/after-sync?page=2`;
  const synced = await from.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(back)}`);
  expect(synced.status, synced.text).toBe(303);
  const location = new URL(synced.headers.get("location") ?? "");
  const ticket = location.searchParams.get("ticket");
  expect(ticket).toEqual(expect.any(String));
  expect(`${location.origin}${location.pathname}`).toBe(`${t.satelliteHost.origin}/after-sync`);
  expect(location.searchParams.get("page")).toBe("2");
  const established = await to.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(back)}`);
  expect(established.status, established.text).toBe(303);
  expect(established.headers.get("location")).toBe(back);
  expect((await to.get("/_svc/client")).body.authenticated).toBe(true);
  return sessionIdOf(to);
}

/** The session behind a browser's cookie, found by the token's hash as the server finds it. */
async function sessionIdOf(browser: HostBrowser): Promise<string> {
  const token = browser.jar.get("__gh_session");
  if (!token) throw new Error("no session cookie");
  const [row] = await getDb().select({ id: sessions.id }).from(sessions).where(eq(sessions.tokenHash, sha256(token)));
  if (!row) throw new Error("no session for the cookie");
  return row.id;
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

  it("revoke-others from another device ends primary and satellite; from the satellite it keeps its own sign-in", async () => {
    const t = await setup();
    await sync(t);
    const elsewhere = hostBrowser(t.primaryHost.host);
    await signIn(elsewhere, t.email);
    expect((await t.satellite.post("/_svc/users/me/sessions/revoke-others")).status).toBe(200);
    expect(await alive(t.satellite)).toBe(true);
    expect(await alive(t.primary)).toBe(true);
    expect(await alive(elsewhere)).toBe(false);

    await signIn(elsewhere, t.email);
    expect((await elsewhere.post("/_svc/users/me/sessions/revoke-others")).status).toBe(200);
    expect(await alive(elsewhere)).toBe(true);
    expect(await alive(t.primary)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("a password change ends the other devices' sign-ins with their satellites and keeps the caller's own; a ban ends all", async () => {
    const t = await setup();
    await sync(t);
    const laptop = hostBrowser(t.primaryHost.host);
    const laptopSatellite = hostBrowser(t.satelliteHost.host);
    await signIn(laptop, t.email);
    await sync(t, laptop, laptopSatellite);
    const changed = await t.primary.post("/_svc/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: "another correct horse battery" });
    expect(changed.status, changed.text).toBe(200);
    expect(await alive(laptop)).toBe(false);
    expect(await alive(laptopSatellite)).toBe(false);
    expect(await alive(t.primary)).toBe(true);
    expect(await alive(t.satellite)).toBe(true);

    expect((await t.api.post(`/users/${t.user.id}/ban`)).status).toBe(200);
    expect(await alive(t.primary)).toBe(false);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("a ticket whose primary session ended before redemption opens nothing", async () => {
    const t = await setup();
    const synced = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/x`)}`);
    const ticket = new URL(synced.headers.get("location") ?? "").searchParams.get("ticket");
    await t.primary.post("/_svc/auth/logout");
    const res = await t.satellite.get(`/_svc/auth/session/establish?ticket=${ticket}&redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/x`)}`);
    expect(res.headers.get("location")).toBe(`${t.satelliteHost.origin}/x?error=invalid_code`);
    expect(await alive(t.satellite)).toBe(false);
  });

  it("regression guard: a logout racing the redemption never leaves a live satellite behind", async () => {
    for (let round = 0; round < 5; round++) {
      const t = await setup();
      const synced = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(`${t.satelliteHost.origin}/x`)}`);
      const ticket = new URL(synced.headers.get("location") ?? "").searchParams.get("ticket");
      await Promise.all([t.primary.post("/_svc/auth/logout"), t.satellite.get(`/_svc/auth/session/establish?ticket=${ticket}`)]);
      const live = await getDb()
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, t.user.id), eq(sessions.status, "active")));
      expect(live).toEqual([]);
    }
  });

  it("without a session the browser goes back to redirect_url with no ticket", async () => {
    const t = await setup();
    const stranger = hostBrowser(t.primaryHost.host);
    const back = `${t.satelliteHost.origin}/after?x=1`;
    const res = await stranger.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(back)}`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(back);
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it("redirect_url outside the environment is 400 invalid_request: nothing issued, nothing followed", async () => {
    const t = await setup();
    const issued = async () => (await getDb().select().from(oneTimeCodes).where(and(eq(oneTimeCodes.userId, t.user.id), eq(oneTimeCodes.purpose, "session_ticket")))).length;
    for (const evil of ["https://evil.example/x", "//evil.example/x", "/relative/path", "javascript:alert(1)", `${t.satelliteHost.origin}@evil.example/`, "http://evil.example\\@x", ""]) {
      const res = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(evil)}`);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res), evil).toEqual(["redirect_url"]);
      expect(res.headers.get("location")).toBeNull();
    }
    const missing = await t.primary.get("/_svc/auth/sync");
    expectProblem(missing, 400, "invalid_request");
    expect(await issued()).toBe(0);
  });

  it("an allowed origin outside the frontend hosts may receive the ticket", async () => {
    const t = await setup();
    const shop = "https://shop.example.org";
    expect((await t.api.put("/allowed-origins", { origins: [shop] })).status).toBe(200);
    const res = await t.primary.get(`/_svc/auth/sync?redirect_url=${encodeURIComponent(`${shop}/cb`)}`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location") ?? "");
    expect(location.origin).toBe(shop);
    const ticket = location.searchParams.get("ticket") ?? "";
    const [row] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenHash, sha256(ticket)));
    expect(row?.payload).toMatchObject({ parentSessionId: t.primarySessionId, codeChallenge: null });
  });

  it("a satellite's own sync hands a ticket parented to the primary, so the primary's end reaches every host", async () => {
    const t = await setup();
    await sync(t);
    const third = hostBrowser(t.satelliteHost.host);
    const thirdSessionId = await sync(t, t.satellite, third);
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
