import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, passkeys, recoveryCodes, totpFactors } from "@/db/schema";
import { expectProblem } from "../helpers/api";
import { clientApi, latestEmail } from "../helpers/client";
import { deadPort } from "../helpers/dead-port";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { mfaEnvironment, mfaToken, mfaUser, signedInClient } from "../helpers/mfa";

/** A passkey row as the WebAuthn registration would store it (that flow is not this suite's). */
async function addPasskey(environmentId: string, userId: string) {
  await getDb()
    .insert(passkeys)
    .values({
      environmentId,
      userId,
      credentialId: randomBytes(16).toString("base64url"),
      publicKey: randomBytes(65).toString("base64url"),
      deviceType: "multiDevice",
      name: "Test key",
    });
}

describe("the Server API's user view shows second factors", () => {
  it("get, search and the other user operations carry mfaEnabled and the passkey count", async () => {
    const env = await mfaEnvironment();
    const plain = await createUser(env.api, { email: uniqueEmail("plain") });
    expect(plain).toMatchObject({ mfaEnabled: false, passkeys: 0 });
    const user = await mfaUser(env.publishableKey, env.api);
    await addPasskey(env.environmentId, user.userId);
    await addPasskey(env.environmentId, user.userId);

    expect((await env.api.get(`/users/${user.userId}`)).body).toMatchObject({ mfaEnabled: true, passkeys: 2 });
    expect((await env.api.get(`/users/${plain.id}`)).body).toMatchObject({ mfaEnabled: false, passkeys: 0 });
    expect((await env.api.patch(`/users/${user.userId}`, { firstName: "Ada" })).body).toMatchObject({ mfaEnabled: true, passkeys: 2 });
    expect((await env.api.patch(`/users/${user.userId}/metadata`, { publicMetadata: { a: 1 } })).body).toMatchObject({ mfaEnabled: true, passkeys: 2 });
    expect((await env.api.post(`/users/${user.userId}/ban`)).body).toMatchObject({ mfaEnabled: true, passkeys: 2 });
    expect((await env.api.post(`/users/${user.userId}/unban`)).body).toMatchObject({ mfaEnabled: true, passkeys: 2 });

    // Every way a page is read: the plain walk, a substring found by the bounded walk, and by the trigram index.
    const byId = (items: { id: string; mfaEnabled: boolean; passkeys: number }[]) => new Map(items.map((item) => [item.id, item]));
    for (const filter of [{}, { email: "mfa-" }, { email: user.email }, { statuses: ["active"] }]) {
      const page = await env.api.post("/users/search", filter);
      expect(page.status, page.text).toBe(200);
      expect(byId(page.body.items).get(user.userId), JSON.stringify(filter)).toMatchObject({ mfaEnabled: true, passkeys: 2 });
    }
    expect(byId((await env.api.post("/users/search", {})).body.items).get(plain.id)).toMatchObject({ mfaEnabled: false, passkeys: 0 });
    // A pending (unconfirmed) app is not "MFA enabled".
    const pending = await createUser(env.api, { email: uniqueEmail("pending"), password: STRONG_PASSWORD });
    const { client } = await signedInClient(env.publishableKey, pending.email ?? "");
    await client.post("/users/me/mfa/totp");
    expect((await env.api.get(`/users/${pending.id}`)).body.mfaEnabled).toBe(false);
  });

  it("deleting a user removes its second factors", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await addPasskey(env.environmentId, user.userId);
    const deleted = await env.api.delete(`/users/${user.userId}`);
    expect(deleted.body).toMatchObject({ status: "deleted", mfaEnabled: false, passkeys: 0 });
    expect(await getDb().select().from(totpFactors).where(eq(totpFactors.userId, user.userId))).toEqual([]);
    expect(await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.userId))).toEqual([]);
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, user.userId))).toEqual([]);
  });
});

describe("DELETE /api/server/v1/users/{userId}/mfa", () => {
  it("removes every factor and revokes every session in one change, with its event; the next sign-in needs only the password", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await addPasskey(env.environmentId, user.userId);
    const waiting = await mfaToken(env.publishableKey, user.email);

    const reset = await env.api.delete(`/users/${user.userId}/mfa`);
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body).toMatchObject({ id: user.userId, mfaEnabled: false, passkeys: 0, status: "active" });
    expect((await env.api.get(`/users/${user.userId}`)).body).toMatchObject({ mfaEnabled: false, passkeys: 0 });
    expectProblem(await user.client.get("/users/me"), 401, "unauthorized");

    const revoked = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.subjectId, user.userId), eq(events.type, "session.revoked")));
    expect(revoked.map((row) => row.data.reason)).toEqual(["mfa_reset"]);
    const [audit] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.subjectId, user.userId), eq(events.type, "user.mfa_reset")));
    expect(audit).toMatchObject({ actorType: "secret_key", data: { revokedSessions: 1, passkeys: 1 } });
    expect(audit?.requestId).toBe(reset.headers.get("x-request-id"));
    expect((await latestEmail(user.email, "second_factors_reset")).subject).toMatch(/reset/);

    // A sign-in begun before the reset cannot finish with an old factor.
    expectProblem(await clientApi(env.publishableKey).post("/auth/mfa/verify", { mfaToken: waiting, code: user.recoveryCodes[0] }), 400, "invalid_code");
    const login = await clientApi(env.publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    expect(login.body.session.status).toBe("ACTIVE");
    // Resetting a user without factors is harmless.
    expect((await env.api.delete(`/users/${user.userId}/mfa`)).body).toMatchObject({ mfaEnabled: false });
  });

  it("where the environment requires MFA, the user must enroll again at the next sign-in", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await env.api.patch("/environment", { mfa: { required: true } });
    await env.api.delete(`/users/${user.userId}/mfa`);
    const login = await clientApi(env.publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    expect(login.body).toEqual({ status: "needs_mfa_enrollment", mfaToken: expect.any(String) });
  });

  it("another environment's user: 403 environment_mismatch and nothing changes; a deleted user: 404", async () => {
    const env = await mfaEnvironment();
    const foreign = await newEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    expectProblem(await foreign.api.delete(`/users/${user.userId}/mfa`), 403, "environment_mismatch");
    expect((await user.client.get("/users/me/mfa")).body).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    await env.api.delete(`/users/${user.userId}`);
    expectProblem(await env.api.delete(`/users/${user.userId}/mfa`), 404, "resource_not_found");
    expectProblem(await env.api.get(`/users/${user.userId}/mfa`), 405, "method_not_allowed");
  });
});

describe("the notices of factor changes are part of the change (review finding: they were missing)", () => {
  afterEach(() => {
    delete process.env.EMAIL_TRANSPORT;
    delete process.env.SMTP_URL;
  });

  it("with the mail transport down, an operator's reset and a passkey removal answer 503 email_unavailable and change nothing", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await addPasskey(env.environmentId, user.userId);
    const [passkey] = await getDb().select().from(passkeys).where(eq(passkeys.userId, user.userId));

    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
    expectProblem(await env.api.delete(`/users/${user.userId}/mfa`), 503, "email_unavailable");
    expectProblem(await user.client.delete(`/users/me/passkeys/${passkey?.id}`), 503, "email_unavailable");
    delete process.env.EMAIL_TRANSPORT;
    delete process.env.SMTP_URL;

    expect((await env.api.get(`/users/${user.userId}`)).body).toMatchObject({ mfaEnabled: true, passkeys: 1 });
    expect((await user.client.get("/users/me")).status).toBe(200);
    expect((await user.client.delete(`/users/me/passkeys/${passkey?.id}`)).status).toBe(200);
    expect((await latestEmail(user.email, "passkey_removed")).subject).toMatch(/passkey was removed/);
  });
});
