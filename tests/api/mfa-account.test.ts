import { and, eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, recoveryCodes, totpFactors } from "@/db/schema";
import { expectProblem, problemFields } from "../helpers/api";
import { ageSignIn, clientApi, emailCount, latestEmail } from "../helpers/client";
import { deadPort } from "../helpers/dead-port";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { awayFromStepEdge, enrollTotp, forgetUsedSteps, mfaEnvironment, mfaToken, mfaUser, signedInClient, totpCode, wrongCode } from "../helpers/mfa";

async function eventTypes(userId: string, prefix: string) {
  const rows = await getDb().select({ type: events.type }).from(events).where(eq(events.subjectId, userId));
  return rows.map((row) => row.type).filter((type) => type.startsWith(prefix));
}

async function freshUser() {
  const env = await mfaEnvironment();
  const email = uniqueEmail();
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
  const { client, session } = await signedInClient(env.publishableKey, email);
  return { ...env, email, userId: user.id, client, session };
}

const NO_MFA = { enabled: false, totp: false, recoveryCodesLeft: 0, passkeys: 0, required: false };

function mailDown() {
  return deadPort().then((port) => {
    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
  });
}

afterEach(() => {
  delete process.env.EMAIL_TRANSPORT;
  delete process.env.SMTP_URL;
});

describe("GET /_svc/users/me/mfa", () => {
  it("a user without factors: nothing on; a signed-out caller: 401", async () => {
    const { client, publishableKey } = await freshUser();
    const status = await client.get("/users/me/mfa");
    expect(status.status).toBe(200);
    expect(status.body).toEqual(NO_MFA);
    expectProblem(await clientApi(publishableKey).get("/users/me/mfa"), 401, "unauthorized");
  });
});

describe("setting up an authenticator app from the account", () => {
  it("start → QR code for the app (issuer = application name, label = email), confirm → on, ten recovery codes, an event and a notice", async () => {
    const { client, api, email, userId } = await freshUser();
    await api.patch("/environment", { branding: { applicationName: "Acme Cloud" } });
    await awayFromStepEdge();
    const started = await client.post("/users/me/mfa/totp");
    expect(started.status).toBe(200);
    const { secret, otpauthUri, qrCodeSvg } = started.body;
    const parsed = OTPAuth.URI.parse(otpauthUri);
    expect(parsed.issuer).toBe("Acme Cloud");
    expect(parsed.label).toBe(email);
    expect(qrCodeSvg).toMatch(/^data:image\/svg\+xml;base64,/);
    // The secret is sealed at rest, and nothing is on until a code confirms it.
    const [row] = await getDb().select().from(totpFactors).where(eq(totpFactors.userId, userId));
    expect(row?.confirmedAt).toBeNull();
    expect(row?.secretSealed).not.toContain(secret);
    expect((await client.get("/users/me/mfa")).body.totp).toBe(false);

    expectProblem(await client.post("/users/me/mfa/totp/confirm", { code: wrongCode(secret) }), 400, "invalid_code");
    const confirmed = await client.post("/users/me/mfa/totp/confirm", { code: (parsed as OTPAuth.TOTP).generate() });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect((await client.get("/users/me/mfa")).body).toEqual({ ...NO_MFA, enabled: true, totp: true, recoveryCodesLeft: 10 });
    expect(await eventTypes(userId, "user.mfa")).toEqual(["user.mfa_enabled"]);
    const notice = await latestEmail(email, "mfa_enabled");
    expect(notice.subject).toBe("Two-step verification is on for your Acme Cloud account");
    for (const code of confirmed.body.recoveryCodes) expect(notice.text).not.toContain(code);
  });

  it("regression guard: the code that confirmed the app cannot also sign in (its step is spent)", async () => {
    const { client, publishableKey, email } = await freshUser();
    await awayFromStepEdge();
    const { secret } = (await client.post("/users/me/mfa/totp")).body;
    const code = totpCode(secret);
    expect((await client.post("/users/me/mfa/totp/confirm", { code })).status).toBe(200);
    const token = await mfaToken(publishableKey, email);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code }), 400, "invalid_code");
  });

  it("starting again replaces the pending secret: only the QR code shown last works", async () => {
    const { client } = await freshUser();
    await awayFromStepEdge();
    const first = (await client.post("/users/me/mfa/totp")).body.secret;
    const second = (await client.post("/users/me/mfa/totp")).body.secret;
    expect(second).not.toBe(first);
    if (totpCode(first) !== totpCode(second)) {
      expectProblem(await client.post("/users/me/mfa/totp/confirm", { code: totpCode(first) }), 400, "invalid_code");
    }
    expect((await client.post("/users/me/mfa/totp/confirm", { code: totpCode(second) })).status).toBe(200);
  });

  it("named errors: confirm before start 400 invalid_code; start or confirm with the app on 409 mfa_already_enabled; stale sign-in 403 reverification_required", async () => {
    const { client, session, userId } = await freshUser();
    expectProblem(await client.post("/users/me/mfa/totp/confirm", { code: "123456" }), 400, "invalid_code");
    const { secret } = await enrollTotp(client, userId);
    const again = await client.post("/users/me/mfa/totp");
    expectProblem(again, 409, "mfa_already_enabled");
    expect(again.body.detail).toMatch(/turn two-step verification off/);
    expectProblem(await client.post("/users/me/mfa/totp/confirm", { code: totpCode(secret) }), 409, "mfa_already_enabled");

    await ageSignIn(session.session.id);
    for (const [method, path, body] of [
      ["POST", "/users/me/mfa/totp", undefined],
      ["POST", "/users/me/mfa/totp/confirm", { code: "123456" }],
      ["POST", "/users/me/mfa/recovery-codes", undefined],
      ["DELETE", "/users/me/mfa", { code: "123456" }],
    ] as const) {
      const res = method === "POST" ? await client.post(path, body) : await client.delete(path, body);
      expectProblem(res, 403, "reverification_required");
    }
    expect((await client.get("/users/me/mfa")).status).toBe(200);
  });

  it("hostile input: wrong types, oversized and unknown fields answer 400 invalid_request, never 5xx", async () => {
    const { client, userId } = await freshUser();
    await client.post("/users/me/mfa/totp");
    for (const body of [{}, { code: 123456 }, { code: null }, { code: ["123456"] }, { code: "" }, { code: "9".repeat(65) }, { code: "123456", extra: 1 }, "123456", null]) {
      const res = await client.post("/users/me/mfa/totp/confirm", body);
      expectProblem(res, 400, "invalid_request");
    }
    expect(problemFields(await client.post("/users/me/mfa/totp/confirm", {}))).toEqual(["code"]);
    expectProblem(await client.post("/users/me/mfa/totp/confirm", { code: "12345\u0000" }), 400, "invalid_request");
    for (const code of ["' or 1=1 --", "١٢٣٤٥٦", "123 456 789", "%00", "\u202e654321"]) {
      expectProblem(await client.post("/users/me/mfa/totp/confirm", { code }), 400, "invalid_code");
    }
    const raw = await client.post("/users/me/mfa/totp/confirm", undefined, { "content-type": "text/plain" });
    expect(raw.status).toBeLessThan(500);
    expect((await getDb().select().from(totpFactors).where(eq(totpFactors.userId, userId)))[0]?.confirmedAt).toBeNull();
  });
});

describe("POST /_svc/users/me/mfa/recovery-codes", () => {
  it("replaces the codes: the old ones stop working, the new ones sign in; an event and a notice", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    const regenerated = await user.client.post("/users/me/mfa/recovery-codes");
    expect(regenerated.status).toBe(200);
    expect(regenerated.body.recoveryCodes).toHaveLength(10);
    expect(regenerated.body.recoveryCodes).not.toContain(user.recoveryCodes[0]);
    expect(await eventTypes(user.userId, "user.recovery_codes")).toEqual(["user.recovery_codes_regenerated"]);
    expect((await latestEmail(user.email, "recovery_codes_regenerated")).subject).toContain("New recovery codes");

    const guest = clientApi(env.publishableKey);
    const token = await mfaToken(env.publishableKey, user.email);
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] }), 400, "invalid_code");
    const verified = await guest.post("/auth/mfa/verify", { mfaToken: token, code: regenerated.body.recoveryCodes[0] });
    expect(verified.status, verified.text).toBe(200);
    expect((await user.client.get("/users/me/mfa")).body.recoveryCodesLeft).toBe(9);
  });

  it("409 mfa_not_enabled without an authenticator app", async () => {
    const { client } = await freshUser();
    expectProblem(await client.post("/users/me/mfa/recovery-codes"), 409, "mfa_not_enabled");
  });
});

describe("DELETE /_svc/users/me/mfa", () => {
  it("takes a current code in the JSON body: turns everything off, records it and tells the owner; sign-in is back to the password", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    expectProblem(await user.client.delete("/users/me/mfa"), 400, "invalid_request");
    expect(problemFields(await user.client.delete("/users/me/mfa", {}))).toEqual(["code"]);
    await awayFromStepEdge();
    const off = await user.client.delete("/users/me/mfa", { code: totpCode(user.secret) });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual(NO_MFA);
    expect(await getDb().select().from(totpFactors).where(eq(totpFactors.userId, user.userId))).toEqual([]);
    expect(await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.userId))).toEqual([]);
    expect(await eventTypes(user.userId, "user.mfa")).toEqual(["user.mfa_enabled", "user.mfa_disabled"]);
    expect((await latestEmail(user.email, "mfa_disabled")).subject).toMatch(/^Two-step verification was turned off for your .+ account$/);
    const login = await clientApi(env.publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    expect(login.body.session.status).toBe("ACTIVE");
    expectProblem(await user.client.delete("/users/me/mfa", { code: user.recoveryCodes[0] }), 409, "mfa_not_enabled");
  });

  it("a recovery code does too (and is spent); a wrong code is 400 invalid_code and changes nothing", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    expectProblem(await user.client.delete("/users/me/mfa", { code: "00000-00000" }), 400, "invalid_code");
    expectProblem(await user.client.delete("/users/me/mfa", { code: "not even a code" }), 400, "invalid_code");
    expect((await user.client.get("/users/me/mfa")).body.totp).toBe(true);
    expect((await user.client.delete("/users/me/mfa", { code: user.recoveryCodes[4]?.toUpperCase() })).status).toBe(200);
  });

  it("wrong codes count toward the account's sign-in throttle", async () => {
    const env = await mfaEnvironment();
    await env.api.patch("/environment", { rateLimits: { failedSignInThreshold: 5 } });
    const user = await mfaUser(env.publishableKey, env.api);
    for (let i = 0; i < 5; i++) expectProblem(await user.client.delete("/users/me/mfa", { code: `0000${i}-00000` }), 400, "invalid_code");
    expectProblem(await user.client.delete("/users/me/mfa", { code: user.recoveryCodes[0] }), 429, "rate_limited");
    expectProblem(await clientApi(env.publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD }), 429, "rate_limited");
  });

  it("where the environment requires MFA, the app is the last factor: 403 mfa_required", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await env.api.patch("/environment", { mfa: { required: true } });
    const refused = await user.client.delete("/users/me/mfa", { code: user.recoveryCodes[0] });
    expectProblem(refused, 403, "mfa_required");
    expect(refused.body.detail).toMatch(/passkey/);
    expect((await user.client.get("/users/me/mfa")).body).toMatchObject({ totp: true, recoveryCodesLeft: 10, required: true });
  });
});

describe("the notices are part of the change (503 email_unavailable: nothing changes)", () => {
  it("confirming, regenerating and disabling each need their email", async () => {
    const env = await mfaEnvironment();
    const fresh = await freshUser();
    await awayFromStepEdge();
    const { secret } = (await fresh.client.post("/users/me/mfa/totp")).body;
    const user = await mfaUser(env.publishableKey, env.api);
    const before = await emailCount(user.email);

    await mailDown();
    expectProblem(await fresh.client.post("/users/me/mfa/totp/confirm", { code: totpCode(secret) }), 503, "email_unavailable");
    expectProblem(await user.client.post("/users/me/mfa/recovery-codes"), 503, "email_unavailable");
    expectProblem(await user.client.delete("/users/me/mfa", { code: user.recoveryCodes[0] }), 503, "email_unavailable");
    delete process.env.EMAIL_TRANSPORT;
    delete process.env.SMTP_URL;

    expect((await fresh.client.get("/users/me/mfa")).body).toEqual(NO_MFA);
    const kept = await user.client.get("/users/me/mfa");
    expect(kept.body).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect(await emailCount(user.email)).toBe(before);
    // Nothing was spent either: the same code and recovery code still work.
    await forgetUsedSteps(fresh.userId);
    expect((await fresh.client.post("/users/me/mfa/totp/confirm", { code: totpCode(secret) })).status).toBe(200);
    expect((await user.client.delete("/users/me/mfa", { code: user.recoveryCodes[0] })).status).toBe(200);
    expect(await eventTypes(user.userId, "user.")).toEqual(expect.arrayContaining(["user.mfa_enabled", "user.mfa_disabled"]));
    const rows = await getDb().select().from(events).where(and(eq(events.subjectId, user.userId), eq(events.type, "user.recovery_codes_regenerated")));
    expect(rows).toEqual([]);
  });
});
