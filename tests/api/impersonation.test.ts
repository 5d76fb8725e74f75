import { and, asc, eq, inArray } from "drizzle-orm";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, oneTimeCodes, sessions } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { findEnvironment } from "@/lib/environments/context";
import { AppError } from "@/lib/errors";
import { createImpersonationTokenEndpoint } from "@/lib/impersonation/server-endpoints";
import { ALL_OPERATIONS } from "@/lib/openapi/operations";
import type { OperatorRole } from "@/lib/operation/caller";
import { refusedDuringImpersonation } from "@/lib/operation/operation";
import { isRecentlyVerified } from "@/lib/sessions/reverification";
import { getUserOrThrow } from "@/lib/users/get-user";
import { call, expectProblem, problemFields, type ServerApi } from "../helpers/api";
import { clientApi, type ClientApi } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { mfaEnvironment, signedInClient } from "../helpers/mfa";
import { enableTotp } from "../helpers/passkeys";
import { issueTicketFor } from "../helpers/tickets";

type Env = Awaited<ReturnType<typeof newEnvironment>>;

const ACTOR = "support-agent-42";
const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";
/** RFC 7636 Appendix B: a verifier and its S256 challenge, for a native satellite ticket. */
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

/** An environment with room for many redemptions from one IP, and a user with a password. */
async function setup() {
  const env = await mfaEnvironment();
  const email = uniqueEmail("impersonated");
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD, firstName: "Ada", lastName: "Lovelace" });
  return { env, user, email };
}

async function mint(api: ServerApi, userId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post("/impersonation-tokens", { userId, actorId: ACTOR, ...extra });
  expect(res.status, res.text).toBe(201);
  return res.body.token as string;
}

/** Redeems a token in a fresh browser-like client; the client keeps the cookie it gets. */
async function impersonate(env: Env, token: string, query = "") {
  const client = clientApi(env.publishableKey);
  const res = await client.post(`/auth/session/impersonate${query}`, { token });
  return { client, res };
}

async function impersonating(env: Env, userId: string): Promise<{ client: ClientApi; sessionId: string; accessToken: string }> {
  const { client, res } = await impersonate(env, await mint(env.api, userId, { reason: "ticket #1234" }));
  expect(res.status, res.text).toBe(200);
  return { client, sessionId: res.body.session.id as string, accessToken: res.body.accessToken as string };
}

async function sessionsOf(userId: string) {
  return getDb().select().from(sessions).where(eq(sessions.userId, userId));
}

async function eventsOf(environmentId: string, type: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.environmentId, environmentId), eq(events.type, type)))
    .orderBy(asc(events.createdAt));
}

async function verifyAccessToken(env: Env, token: string) {
  const jwks = await call("GET", "/_svc/.well-known/jwks.json", { headers: { "x-api-key": env.publishableKey } });
  expect(jwks.status, jwks.text).toBe(200);
  return jwtVerify(token, createLocalJWKSet(jwks.body as JSONWebKeySet));
}

describe("POST /api/server/v1/impersonation-tokens", () => {
  it("mints a single-use token for 10 minutes, stored only as its hash, audited with actorId and reason", async () => {
    const { env, user } = await setup();
    const before = Date.now();
    const res = await env.api.post("/impersonation-tokens", { userId: user.id, actorId: ACTOR, reason: "ticket #1234" });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["expiresAt", "token"]);
    const lifetime = Date.parse(res.body.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(595_000);
    expect(lifetime).toBeLessThanOrEqual(601_000);
    const rows = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(rows.map((row) => [row.purpose, row.tokenHash])).toEqual([["impersonation", sha256(res.body.token)]]);
    expect(JSON.stringify(rows)).not.toContain(res.body.token);
    const [created] = await eventsOf(env.environmentId, "user.impersonation_token_created");
    expect(created).toMatchObject({ actorType: "secret_key", subjectId: user.id, onBehalfOfType: null });
    expect(created?.data).toEqual({ tokenId: rows[0]?.id, actorId: ACTOR, reason: "ticket #1234", expiresAt: res.body.expiresAt });
    expect(JSON.stringify(created)).not.toContain(res.body.token);
  });

  it("is 401 without a secret key, or with a publishable key", async () => {
    const { env, user } = await setup();
    const body = { userId: user.id, actorId: ACTOR };
    expectProblem(await call("POST", "/api/server/v1/impersonation-tokens", { body }), 401, "unauthorized");
    expectProblem(await call("POST", "/api/server/v1/impersonation-tokens", { body, headers: { authorization: `Bearer ${env.publishableKey}` } }), 401, "unauthorized");
  });

  it("is 400 invalid_request naming the field for a bad body: actorId empty, blank or 129 characters, a bad userId, unknown keys", async () => {
    const { env, user } = await setup();
    const cases: [unknown, string[]][] = [
      [{ userId: user.id }, ["actorId"]],
      [{ userId: user.id, actorId: "" }, ["actorId"]],
      [{ userId: user.id, actorId: "   " }, ["actorId"]],
      [{ userId: user.id, actorId: "a".repeat(129) }, ["actorId"]],
      [{ userId: user.id, actorId: 42 }, ["actorId"]],
      [{ actorId: ACTOR }, ["userId"]],
      [{ userId: "not-a-uuid", actorId: ACTOR }, ["userId"]],
      [{ userId: user.id, actorId: ACTOR, reason: "r".repeat(501) }, ["reason"]],
      [{ userId: user.id, actorId: ACTOR, sub: "someone-else" }, ["body"]],
    ];
    for (const [body, fields] of cases) {
      const res = await env.api.post("/impersonation-tokens", body);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res), JSON.stringify(body)).toEqual(fields);
    }
    const malformed = await env.api.raw("POST", "/impersonation-tokens", { rawBody: "{", headers: { "content-type": "application/json" } });
    expectProblem(malformed, 400, "invalid_request");
    // 128 characters is the limit, not past it.
    expect((await env.api.post("/impersonation-tokens", { userId: user.id, actorId: "a".repeat(128) })).status).toBe(201);
    expect(await eventsOf(env.environmentId, "user.impersonation_token_created")).toHaveLength(1);
  });

  it("refuses a banned user with 403 user_banned, and deleted and unknown users with 404", async () => {
    const { env, user } = await setup();
    expect((await env.api.post(`/users/${user.id}/ban`)).status).toBe(200);
    expectProblem(await env.api.post("/impersonation-tokens", { userId: user.id, actorId: ACTOR }), 403, "user_banned");
    const other = await createUser(env.api, { email: uniqueEmail() });
    expect((await env.api.delete(`/users/${other.id}`)).status).toBeLessThan(300);
    expectProblem(await env.api.post("/impersonation-tokens", { userId: other.id, actorId: ACTOR }), 404, "resource_not_found");
    expectProblem(await env.api.post("/impersonation-tokens", { userId: unknownId(), actorId: ACTOR }), 404, "resource_not_found");
    expect(await getDb().select().from(oneTimeCodes).where(inArray(oneTimeCodes.userId, [user.id, other.id]))).toHaveLength(0);
  });

  it("keeps environments apart: another environment's user is 403 environment_mismatch, its token opens nothing elsewhere", async () => {
    const { env, user } = await setup();
    const other = await newEnvironment();
    expectProblem(await other.api.post("/impersonation-tokens", { userId: user.id, actorId: ACTOR }), 403, "environment_mismatch");
    const token = await mint(env.api, user.id);
    expectProblem((await impersonate(other, token)).res, 400, "invalid_code");
    // Presented to the wrong environment it was not even spent: its own still opens the session.
    expect((await impersonate(env, token)).res.status).toBe(200);
  });

  it("a dashboard operator (write permission) impersonates as themselves; a viewer is refused", async () => {
    const { env, user } = await setup();
    const environment = await findEnvironment(getDb(), env.environmentId);
    if (!environment) throw new Error("no environment");
    const context = { requestId: "req_operator_impersonation", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
    const operator = (role: OperatorRole) => ({ id: `op_${role}`, email: `${role}@operators.example.com`, role, hasSecondFactor: true, sessionProvedSecondFactor: true });
    const run = (role: OperatorRole, actorId: string) =>
      runOperatorOperation(createImpersonationTokenEndpoint, operator(role), environment, { body: { userId: user.id, actorId } }, context);
    const refusal = async (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof AppError ? error.code : error));
    expect(await refusal(run("viewer", "op_viewer"))).toBe("forbidden");
    expect(await refusal(run("admin", "someone-else"))).toBe("forbidden");
    const minted = await run("admin", "op_admin");
    if (!minted || !("token" in minted)) throw new Error("no token");
    const { res } = await impersonate(env, minted.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.session.actor).toEqual({ sub: "op_admin" });
    const [row] = await sessionsOf(user.id);
    expect(row).toMatchObject({ impersonatorType: "operator", impersonatorId: "op_admin" });
    const [created] = await eventsOf(env.environmentId, "user.impersonation_token_created");
    expect(created).toMatchObject({ actorType: "operator", actorId: "op_admin" });
  });
});

describe("POST /_svc/auth/session/impersonate", () => {
  it("answers like a sign-in: the cookie, an access token, the session with its actor, the user; amr impersonation", async () => {
    const { env, user } = await setup();
    const { client, res } = await impersonate(env, await mint(env.api, user.id));
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ session: { status: "ACTIVE", actor: { sub: ACTOR } }, user: { id: user.id } });
    expect(res.body.accessToken).toEqual(expect.any(String));
    expect(res.body.sessionToken).toBeUndefined();
    expect(client.jar.get("__gh_session")).toEqual(expect.any(String));
    const me = await client.get("/users/me");
    expect(me.status, me.text).toBe(200);
    expect(me.body.id).toBe(user.id);
    const [row] = await sessionsOf(user.id);
    expect(row).toMatchObject({ id: res.body.session.id, amr: ["impersonation"], impersonatorType: "secret_key", impersonatorId: ACTOR });
  });

  it("asks no second factor of a user with MFA: the operator's act is not the user's sign-in", async () => {
    const { env, user } = await setup();
    await enableTotp(env.environmentId, user.id);
    const { res } = await impersonate(env, await mint(env.api, user.id));
    expect(res.status, res.text).toBe(200);
    expect(res.body.session.status).toBe("ACTIVE");
  });

  it("gives a native app (_is_native=true) its sessionToken, which works as a bearer", async () => {
    const { env, user } = await setup();
    const { res } = await impersonate(env, await mint(env.api, user.id), "?_is_native=true");
    expect(res.status, res.text).toBe(200);
    expect(res.body.sessionToken).toEqual(expect.any(String));
    const me = await call("GET", "/_svc/users/me", { headers: { "x-api-key": env.publishableKey, authorization: `Bearer ${res.body.sessionToken}` } });
    expect(me.status, me.text).toBe(200);
    const probe = await call("GET", "/_svc/client", { headers: { "x-api-key": env.publishableKey, authorization: `Bearer ${res.body.sessionToken}` } });
    expect(probe.body.user.session.actor).toEqual({ sub: ACTOR });
  });

  it("a token opens one session: the replay is 400 invalid_code", async () => {
    const { env, user } = await setup();
    const token = await mint(env.api, user.id);
    expect((await impersonate(env, token)).res.status).toBe(200);
    expectProblem((await impersonate(env, token)).res, 400, "invalid_code");
    expect(await sessionsOf(user.id)).toHaveLength(1);
  });

  it("10 concurrent redemptions of one token: exactly one session", async () => {
    const { env, user } = await setup();
    const token = await mint(env.api, user.id);
    const results = await Promise.all(Array.from({ length: 10 }, () => impersonate(env, token)));
    expect(results.filter(({ res }) => res.status === 200)).toHaveLength(1);
    for (const { res } of results.filter(({ res: candidate }) => candidate.status !== 200)) expectProblem(res, 400, "invalid_code");
    expect(await sessionsOf(user.id)).toHaveLength(1);
    expect(await eventsOf(env.environmentId, "user.impersonation_started")).toHaveLength(1);
  });

  it("an expired token (past its 10 minutes) is 400 invalid_code and opens nothing", async () => {
    const { env, user } = await setup();
    const token = await mint(env.api, user.id);
    await getDb()
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.tokenHash, sha256(token)));
    expectProblem((await impersonate(env, token)).res, 400, "invalid_code");
    expect(await sessionsOf(user.id)).toHaveLength(0);
  });

  it("unknown tokens are 400 invalid_code, bad bodies 400 invalid_request, never a 500", async () => {
    const { env } = await setup();
    expectProblem((await impersonate(env, "x".repeat(43))).res, 400, "invalid_code");
    for (const body of [{}, { token: "" }, { token: 5 }, { token: "a".repeat(257) }, { token: "t", extra: 1 }, null, "token"]) {
      const res = await clientApi(env.publishableKey).post("/auth/session/impersonate", body);
      expectProblem(res, 400, "invalid_request");
    }
  });

  it("checks the user again: banned since minting is 403 user_banned, deleted is 400 invalid_code", async () => {
    const { env, user } = await setup();
    const token = await mint(env.api, user.id);
    expect((await env.api.post(`/users/${user.id}/ban`)).status).toBe(200);
    expectProblem((await impersonate(env, token)).res, 403, "user_banned");
    const other = await createUser(env.api, { email: uniqueEmail() });
    const otherToken = await mint(env.api, other.id);
    expect((await env.api.delete(`/users/${other.id}`)).status).toBeLessThan(300);
    expectProblem((await impersonate(env, otherToken)).res, 400, "invalid_code");
    expect([...(await sessionsOf(user.id)), ...(await sessionsOf(other.id))]).toHaveLength(0);
  });

  it("revoking all the user's sessions voids a token not yet redeemed", async () => {
    const { env, user } = await setup();
    const token = await mint(env.api, user.id);
    expect((await env.api.delete(`/users/${user.id}/sessions`)).status).toBe(200);
    expectProblem((await impersonate(env, token)).res, 400, "invalid_code");
  });
});

describe("the impersonation session", () => {
  it("lives at most an hour, whatever the environment's session lifetime; its cookie too", async () => {
    const { env, user } = await setup();
    const { client, res } = await impersonate(env, await mint(env.api, user.id));
    expect(res.status).toBe(200);
    const [row] = await sessionsOf(user.id);
    if (!row) throw new Error("no session");
    const lifetime = row.expiresAt.getTime() - row.createdAt.getTime();
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(client.jar.get("__gh_session")).toBeDefined();
    // A shorter environment lifetime wins.
    expect((await env.api.patch("/environment", { sessions: { lifetimeSeconds: 600 } })).status).toBe(200);
    await impersonate(env, await mint(env.api, user.id));
    const shorter = (await sessionsOf(user.id)).find((candidate) => candidate.id !== row.id);
    expect((shorter?.expiresAt.getTime() ?? 0) - (shorter?.createdAt.getTime() ?? 0)).toBe(600_000);
  });

  it("carries act: {sub: actorId} in access tokens verified against the JWKS, also when refreshed; a user's own sign-in has none", async () => {
    const { env, user, email } = await setup();
    const { client, accessToken, sessionId } = await impersonating(env, user.id);
    const { payload } = await verifyAccessToken(env, accessToken);
    expect(payload).toMatchObject({ sub: user.id, sid: sessionId, env: env.environmentId, act: { sub: ACTOR } });
    const refreshed = await client.post("/auth/token");
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await verifyAccessToken(env, refreshed.body.accessToken)).payload.act).toEqual({ sub: ACTOR });
    const own = await signedInClient(env.publishableKey, email);
    expect((await verifyAccessToken(env, own.session.accessToken)).payload.act).toBeUndefined();
  });

  it("regression: a JWT template's day-long token (or a refresh near the end) outlived the hour; no token of it expires after the session", async () => {
    const { env, user } = await setup();
    const template = await env.api.post("/jwt-templates", { name: "long-lived", claims: { plan: "pro" }, lifetimeSeconds: 86_400 });
    expect(template.status, template.text).toBe(201);
    const { client, sessionId } = await impersonating(env, user.id);
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
    if (!row) throw new Error("no session row");
    const sessionEnd = Math.floor(row.expiresAt.getTime() / 1000);
    const minted = await client.post("/auth/token/long-lived");
    expect(minted.status, minted.text).toBe(200);
    const { payload } = await verifyAccessToken(env, minted.body.accessToken ?? minted.body.token);
    expect(payload.act).toEqual({ sub: ACTOR });
    expect(payload.exp).toBeLessThanOrEqual(sessionEnd);
    // Near the end, a refresh's token stops with the session too.
    await getDb().update(sessions).set({ expiresAt: new Date(Date.now() + 20_000) }).where(eq(sessions.id, sessionId));
    const refreshed = await client.post("/auth/token");
    expect(refreshed.status, refreshed.text).toBe(200);
    expect((await verifyAccessToken(env, refreshed.body.accessToken)).payload.exp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 21);
  });

  it("the boot probe names the actor; null for the user's own session, signed out after End", async () => {
    const { env, user, email } = await setup();
    const { client } = await impersonating(env, user.id);
    const probe = await client.get("/client");
    expect(probe.status, probe.text).toBe(200);
    expect(probe.body).toMatchObject({ authenticated: true, user: { user: { id: user.id }, session: { status: "ACTIVE", actor: { sub: ACTOR } } } });
    const own = await signedInClient(env.publishableKey, email);
    expect((await own.client.get("/client")).body.user.session.actor).toBeNull();
    expect(own.session.session.actor).toBeNull();
    expect((await client.post("/auth/logout")).status).toBe(200);
    expect((await client.get("/client")).body.authenticated).toBe(false);
  });

  it("is refused every credential, address, factor, passkey, identity, session, deletion, export, consent and reverification operation with 403 impersonation_forbidden", async () => {
    const { env, user, email } = await setup();
    const { client } = await impersonating(env, user.id);
    const refused = ALL_OPERATIONS.filter((operation) => operation.path.startsWith("/_svc/") && refusedDuringImpersonation(operation));
    expect(refused.map((operation) => operation.operationId)).toEqual(
      expect.arrayContaining([
        "changePassword",
        "addEmailAddress",
        "promoteEmailAddress",
        "removeEmailAddress",
        "startTotpEnrollment",
        "confirmTotpEnrollment",
        "regenerateRecoveryCodes",
        "disableMfa",
        "getPasskeyRegistrationOptions",
        "registerPasskey",
        "renamePasskey",
        "deletePasskey",
        "oauthLink",
        "oauthLinkStart",
        "oauthLinkComplete",
        "unlinkIdentity",
        "revokeOtherSessions",
        "revokeMySession",
        "requestAccountDeletion",
        "requestDataExport",
        "reverify",
        "reverifyWithPasskey",
        "getPasskeyReverifyOptions",
        "oauthReverify",
        "acceptLegal",
      ]),
    );
    for (const operation of refused) {
      const path = operation.path.replace(/^\/_svc/, "").replace(/\{\w+\}/g, SAMPLE_ID);
      const send = { get: client.get, post: client.post, patch: client.patch, delete: client.delete, put: client.post }[operation.method];
      const res = await send(path, operation.method === "get" ? undefined : { password: STRONG_PASSWORD, newPassword: "another horse battery staple" });
      expectProblem(res, 403, "impersonation_forbidden");
    }
    // Nothing changed: the password still signs in, the sessions are both alive.
    const own = await signedInClient(env.publishableKey, email);
    expect((await own.client.get("/users/me/sessions")).body.items).toHaveLength(2);
    // The user's own session is not refused the same (it answers on the merits, not 403 impersonation_forbidden).
    const mine = await own.client.post("/users/me/data-requests");
    expect(mine.status, mine.text).toBeLessThan(300);
  });

  it("may still read and update the profile, and never counts as a recent sign-in", async () => {
    const { env, user } = await setup();
    const { client, sessionId } = await impersonating(env, user.id);
    expect((await client.get("/users/me/sessions")).status).toBe(200);
    const updated = await client.patch("/users/me", { firstName: "Augusta" });
    expect(updated.status, updated.text).toBe(200);
    const environment = await findEnvironment(getDb(), env.environmentId);
    const [session] = await getDb().select().from(sessions).where(eq(sessions.id, sessionId));
    if (!environment || !session) throw new Error("missing rows");
    const current = { session, user: await getUserOrThrow(getDb(), env.environmentId, user.id), token: "", presentedAs: "cookie" as const };
    expect(isRecentlyVerified(environment, current)).toBe(false);
    expect(isRecentlyVerified(environment, { ...current, session: { ...session, impersonatorType: null, impersonatorId: null } })).toBe(true);
  });

  it("is audited at start and end; every event during it names the impersonator as onBehalfOf", async () => {
    const { env, user } = await setup();
    const { client, sessionId } = await impersonating(env, user.id);
    const onBehalfOf = { actorType: "user", actorId: user.id, onBehalfOfType: "secret_key", onBehalfOfId: ACTOR, subjectId: user.id };
    const [tokenRow] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    const [started] = await eventsOf(env.environmentId, "user.impersonation_started");
    expect(started).toMatchObject(onBehalfOf);
    expect(started?.data).toEqual({ tokenId: tokenRow?.id, sessionId, actorId: ACTOR });
    expect(started?.requestId).toMatch(/^req_/);
    expect(await eventsOf(env.environmentId, "session.created")).toEqual([expect.objectContaining({ ...onBehalfOf, data: { sessionId, amr: ["impersonation"] } })]);
    expect((await client.patch("/users/me", { firstName: "Augusta" })).status).toBe(200);
    expect(await eventsOf(env.environmentId, "user.profile_updated")).toEqual([expect.objectContaining(onBehalfOf)]);
    expect((await client.post("/auth/logout")).status).toBe(200);
    const [ended] = await eventsOf(env.environmentId, "user.impersonation_ended");
    expect(ended).toMatchObject(onBehalfOf);
    expect(ended?.data).toEqual({ sessionId, actorId: ACTOR, reason: "sign_out" });
    expect(await eventsOf(env.environmentId, "session.revoked")).toEqual([expect.objectContaining({ ...onBehalfOf, data: { sessionId, reason: "sign_out" } })]);
  });

  it("ends, audited, when the Server API revokes the user's sessions; the user's own sessions end without that event", async () => {
    const { env, user, email } = await setup();
    const { client, sessionId } = await impersonating(env, user.id);
    await signedInClient(env.publishableKey, email);
    expect((await env.api.delete(`/users/${user.id}/sessions`)).body.revokedCount).toBe(2);
    expect((await client.get("/users/me")).status).toBe(401);
    const ended = await eventsOf(env.environmentId, "user.impersonation_ended");
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ actorType: "secret_key", onBehalfOfId: null, data: { sessionId, actorId: ACTOR, reason: "revoke_all" } });
  });

  it("handed to a satellite domain, stays an impersonation: the satellite carries the actor, its limits and its end", async () => {
    const { env, user } = await setup();
    const { client, sessionId } = await impersonating(env, user.id);
    const ticket = await issueTicketFor(env.environmentId, user.id, { methods: ["impersonation"], codeChallenge: RFC_CHALLENGE, parentSessionId: sessionId });
    const satellite = await clientApi(env.publishableKey).post("/auth/session/establish", { ticket, codeVerifier: RFC_VERIFIER });
    expect(satellite.status, satellite.text).toBe(200);
    expect(satellite.body.session.actor).toEqual({ sub: ACTOR });
    expect((await verifyAccessToken(env, satellite.body.accessToken)).payload.act).toEqual({ sub: ACTOR });
    const bearer = { "x-api-key": env.publishableKey, authorization: `Bearer ${satellite.body.sessionToken}` };
    expectProblem(await call("POST", "/_svc/users/me/data-requests", { headers: bearer }), 403, "impersonation_forbidden");
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, satellite.body.session.id));
    expect(row).toMatchObject({ parentSessionId: sessionId, impersonatorType: "secret_key", impersonatorId: ACTOR });
    expect(row?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
    // End on the primary ends the satellite, each end recorded.
    expect((await client.post("/auth/logout")).status).toBe(200);
    expect((await call("GET", "/_svc/users/me", { headers: bearer })).status).toBe(401);
    const ended = await eventsOf(env.environmentId, "user.impersonation_ended");
    // One transaction writes both: their created_at is equal, so their order is not asserted.
    expect(ended).toHaveLength(2);
    expect(ended.map((event) => event.data)).toEqual(
      expect.arrayContaining([
        { sessionId, actorId: ACTOR, reason: "sign_out" },
        { sessionId: satellite.body.session.id, actorId: ACTOR, reason: "primary_session_ended" },
      ]),
    );
  });
});

describe("the OpenAPI document", () => {
  it("documents both operations, the session state's actor, the act claim, and impersonation_forbidden where it applies", async () => {
    const doc = (await call("GET", "/api/openapi.json")).body;
    const mint = doc.paths["/api/server/v1/impersonation-tokens"].post;
    expect(Object.keys(mint.responses)).toEqual(expect.arrayContaining(["201", "400", "401", "403", "404"]));
    expect(mint.responses["403"].description).toContain("user_banned");
    expect(doc.paths["/_svc/auth/session/impersonate"].post.responses["400"].description).toContain("invalid_code");
    expect(doc.components.schemas.SessionState.properties.actor).toBeDefined();
    expect(doc.components.schemas.AccessToken.properties.accessToken.description).toContain("`act: {sub}`");
    for (const [path, method] of [["/_svc/users/me/password", "post"], ["/_svc/users/me/data-requests", "post"], ["/_svc/auth/reverify", "post"]] as const) {
      expect(doc.paths[path][method].responses["403"].description, path).toContain("impersonation_forbidden");
    }
    expect(doc.paths["/_svc/users/me"].patch.responses["403"]?.description ?? "").not.toContain("impersonation_forbidden");
  });
});
