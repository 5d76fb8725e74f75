import { eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sessions } from "@/db/schema";
import { expectProblem, problemFields } from "../helpers/api";
import { ageSignIn, clientApi, codeIn, emailCount, emailedResetCode, latestEmail } from "../helpers/client";
import { createUser, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { awayFromStepEdge, mfaEnvironment, signedInClient, totpCode, wrongCode } from "../helpers/mfa";

/** An environment that requires MFA (set through the Server API), and a user without a factor. */
async function enforced() {
  const env = await mfaEnvironment();
  const email = uniqueEmail("enforced");
  const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
  const patched = await env.api.patch("/environment", { mfa: { required: true }, branding: { applicationName: "Acme Cloud" } });
  expect(patched.body.mfa).toEqual({ required: true });
  return { ...env, email, userId: user.id };
}

async function enrollmentToken(publishableKey: string, email: string, native = false) {
  const login = await clientApi(publishableKey).post(`/auth/login${native ? "?_is_native=true" : ""}`, { email, password: STRONG_PASSWORD });
  expect(login.status, login.text).toBe(200);
  expect(login.body).toEqual({ status: "needs_mfa_enrollment", mfaToken: expect.any(String) });
  expect(login.headers.getSetCookie()).toEqual([]);
  return login.body.mfaToken as string;
}

describe("enforced MFA during sign-in (mfa.required)", () => {
  it("login → needs_mfa_enrollment → enroll → confirm → a session and ten recovery codes; the next login asks for the code", async () => {
    const { publishableKey, email, userId } = await enforced();
    const token = await enrollmentToken(publishableKey, email);
    const guest = clientApi(publishableKey);
    const started = await guest.post("/auth/mfa/enroll", { mfaToken: token });
    expect(started.status, started.text).toBe(200);
    const app = OTPAuth.URI.parse(started.body.otpauthUri) as OTPAuth.TOTP;
    expect(app.issuer).toBe("Acme Cloud");
    expect(app.label).toBe(email);
    expect(guest.jar.size).toBe(0);

    await awayFromStepEdge();
    expectProblem(await guest.post("/auth/mfa/enroll/confirm", { mfaToken: token, code: wrongCode(started.body.secret) }), 400, "invalid_code");
    const confirmed = await guest.post("/auth/mfa/enroll/confirm", { mfaToken: token, code: app.generate() });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(confirmed.body.session.status).toBe("ACTIVE");
    expect(confirmed.body.accessToken).toEqual(expect.any(String));
    expect(confirmed.body).not.toHaveProperty("sessionToken");
    expect(guest.jar.get("__gh_session")).toBeTruthy();
    const [row] = await getDb().select().from(sessions).where(eq(sessions.id, confirmed.body.session.id));
    expect(row).toMatchObject({ amr: ["pwd", "otp"], aal: 2, userId });
    expect((await guest.get("/users/me/mfa")).body).toEqual({ enabled: true, totp: true, recoveryCodesLeft: 10, passkeys: 0, required: true });
    expect((await latestEmail(email, "mfa_enabled")).subject).toBe("Two-step verification is on for your Acme Cloud account");

    // Spent: the token opens nothing more.
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/enroll/confirm", { mfaToken: token, code: app.generate() }), 400, "invalid_code");
    const next = await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(next.body).toMatchObject({ status: "needs_second_factor", factors: ["totp", "recovery_code"] });
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: next.body.mfaToken, code: confirmed.body.recoveryCodes[0] })).status).toBe(200);
  });

  it("native: enroll/confirm with _is_native=true returns a sessionToken with the codes", async () => {
    const { publishableKey, email } = await enforced();
    const token = await enrollmentToken(publishableKey, email, true);
    const { secret } = (await clientApi(publishableKey).post("/auth/mfa/enroll", { mfaToken: token })).body;
    await awayFromStepEdge();
    const confirmed = await clientApi(publishableKey).post("/auth/mfa/enroll/confirm?_is_native=true", { mfaToken: token, code: totpCode(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.headers.getSetCookie().length).toBeGreaterThan(0);
    const native = clientApi(publishableKey, { headers: { authorization: `Bearer ${confirmed.body.sessionToken}` } });
    expect((await native.get("/users/me")).status).toBe(200);
  });

  it("tokens of one kind do nothing at the other's endpoints; 5 wrong codes kill an enrollment token", async () => {
    const { publishableKey, email } = await enforced();
    const token = await enrollmentToken(publishableKey, email);
    const guest = clientApi(publishableKey);
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code: "123456" }), 400, "invalid_code");
    // Confirming before any enrollment was started counts as a wrong code.
    expectProblem(await guest.post("/auth/mfa/enroll/confirm", { mfaToken: token, code: "123456" }), 400, "invalid_code");
    const { secret } = (await guest.post("/auth/mfa/enroll", { mfaToken: token })).body;
    for (let i = 0; i < 4; i++) expectProblem(await guest.post("/auth/mfa/enroll/confirm", { mfaToken: token, code: wrongCode(secret) }), 400, "invalid_code");
    await awayFromStepEdge();
    expectProblem(await guest.post("/auth/mfa/enroll/confirm", { mfaToken: token, code: totpCode(secret) }), 400, "invalid_code");
    expectProblem(await guest.post("/auth/mfa/enroll", { mfaToken: token }), 400, "invalid_code");
    expect(guest.jar.size).toBe(0);
  });

  it("a second sign-in's enrollment after the first confirmed: 409 mfa_already_enabled; a second-factor token cannot enroll", async () => {
    const { publishableKey, email } = await enforced();
    const first = await enrollmentToken(publishableKey, email);
    const second = await enrollmentToken(publishableKey, email);
    const { secret } = (await clientApi(publishableKey).post("/auth/mfa/enroll", { mfaToken: first })).body;
    await awayFromStepEdge();
    expect((await clientApi(publishableKey).post("/auth/mfa/enroll/confirm", { mfaToken: first, code: totpCode(secret) })).status).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/enroll", { mfaToken: second }), 409, "mfa_already_enabled");
    const login = await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD });
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/enroll", { mfaToken: login.body.mfaToken }), 400, "invalid_code");
  });

  it("hostile input at enroll and enroll/confirm: 400 invalid_request or invalid_code, never 5xx", async () => {
    const { publishableKey } = await enforced();
    const guest = clientApi(publishableKey);
    for (const body of [{}, { mfaToken: 5 }, { mfaToken: "" }, { mfaToken: "x".repeat(201) }, { mfaToken: "x", extra: 1 }, null]) {
      expectProblem(await guest.post("/auth/mfa/enroll", body), 400, "invalid_request");
    }
    expect(problemFields(await guest.post("/auth/mfa/enroll/confirm", {})).sort()).toEqual(["code", "mfaToken"]);
    expectProblem(await guest.post("/auth/mfa/enroll", { mfaToken: "forged" }), 400, "invalid_code");
    expectProblem(await guest.post("/auth/mfa/enroll/confirm", { mfaToken: "forged", code: "123456" }), 400, "invalid_code");
  });

  it("sign-up verification in such an environment also answers needs_mfa_enrollment, with no cookie", async () => {
    const { publishableKey } = await enforced();
    const email = uniqueEmail("signup");
    const guest = clientApi(publishableKey);
    const started = await guest.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const verified = await guest.post("/auth/signup/verify", { token: started.body.token, code: codeIn((await latestEmail(email, "sign_up_code")).text) });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toEqual({ status: "needs_mfa_enrollment", mfaToken: expect.any(String) });
    expect(guest.jar.size).toBe(0);
    expect((await guest.post("/auth/mfa/enroll", { mfaToken: verified.body.mfaToken })).status).toBe(200);
  });
});

describe("a session that predates mfa.required", () => {
  it("becomes PENDING on MFA_ENROLLMENT; it may reverify and enroll through /users/me/mfa/totp, and is ACTIVE after", async () => {
    const env = await mfaEnvironment();
    const email = uniqueEmail("existing");
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client, session } = await signedInClient(env.publishableKey, email);
    expect((await client.get("/users/me")).status).toBe(200);
    await env.api.patch("/environment", { mfa: { required: true } });

    const blocked = await client.get("/users/me");
    expectProblem(blocked, 403, "session_pending");
    expect(blocked.body.properties.currentGate).toEqual({ key: "MFA_ENROLLMENT" });
    expect((await client.get("/client")).body.user.session).toMatchObject({ status: "PENDING", currentGate: { key: "MFA_ENROLLMENT" } });
    // Only the enrollment's own operations clear the gate.
    expectProblem(await client.post("/users/me/mfa/recovery-codes"), 403, "session_pending");
    expectProblem(await client.post("/auth/token"), 403, "session_pending");

    await ageSignIn(session.session.id);
    expectProblem(await client.post("/users/me/mfa/totp"), 403, "reverification_required");
    expect((await client.post("/auth/reverify", { password: STRONG_PASSWORD })).status).toBe(200);
    const started = await client.post("/users/me/mfa/totp");
    expect(started.status, started.text).toBe(200);
    await awayFromStepEdge();
    const confirmed = await client.post("/users/me/mfa/totp/confirm", { code: totpCode(started.body.secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);

    expect((await client.get("/client")).body.user.session.status).toBe("ACTIVE");
    expect((await client.get("/users/me")).status).toBe(200);
    expect((await client.post("/auth/token")).status).toBe(200);
  });
});

describe("a password reset where MFA is required, by a user without a factor", () => {
  it("regression: the reset set the password and ended every session before the enrollment; now the enrollment's confirmation does", async () => {
    const env = await mfaEnvironment();
    const email = uniqueEmail("enforced-reset");
    const newPassword = "a brand new passphrase";
    await createUser(env.api, { email, password: STRONG_PASSWORD });
    const { client: owner } = await signedInClient(env.publishableKey, email);
    await env.api.patch("/environment", { mfa: { required: true } });

    const guest = clientApi(env.publishableKey);
    const reset = await guest.post("/auth/reset-password", { email, code: await emailedResetCode(env.publishableKey, email), newPassword });
    expect(reset.body).toEqual({ status: "needs_mfa_enrollment", mfaToken: expect.any(String) });
    expect(guest.jar.size).toBe(0);
    // Nothing changed yet: the owner's session (held at its enrollment gate) lives, the old password signs in.
    expect((await owner.get("/client")).body.user.session.status).toBe("PENDING");
    await enrollmentToken(env.publishableKey, email);
    expect(await emailCount(email, "password_changed")).toBe(0);

    const { secret } = (await guest.post("/auth/mfa/enroll", { mfaToken: reset.body.mfaToken })).body;
    await awayFromStepEdge();
    const confirmed = await guest.post("/auth/mfa/enroll/confirm", { mfaToken: reset.body.mfaToken, code: totpCode(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.session.status).toBe("ACTIVE");
    expect((await owner.get("/client")).body.authenticated).toBe(false);
    expect((await clientApi(env.publishableKey).post("/auth/login", { email, password: newPassword })).body.status).toBe("needs_second_factor");
    expectProblem(await clientApi(env.publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD }), 401, "invalid_credentials");
    expect(await emailCount(email, "password_changed")).toBe(1);
  });
});
