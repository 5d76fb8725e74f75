import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, oneTimeCodes, sessions } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { readFailureStreak } from "@/lib/rate-limit/failure-streak";
import { expectProblem, problemFields, type ApiResponse } from "../helpers/api";
import { ageSignIn, clientApi, emailCount, emailedResetCode } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { awayFromStepEdge, forgetUsedSteps, mfaEnvironment, mfaToken, mfaUser, totpCode, wrongCode } from "../helpers/mfa";

async function sessionRow(id: string) {
  const [row] = await getDb().select().from(sessions).where(eq(sessions.id, id));
  if (!row) throw new Error("no session row");
  return row;
}

function expectNoSession(res: ApiResponse) {
  expect(res.status, res.text).toBe(200);
  expect(res.body.status).toBe("needs_second_factor");
  expect(res.headers.getSetCookie()).toEqual([]);
  expect(res.body).not.toHaveProperty("sessionToken");
  expect(res.body).not.toHaveProperty("accessToken");
}

async function setup() {
  const env = await mfaEnvironment();
  const user = await mfaUser(env.publishableKey, env.api);
  return { ...env, user };
}

describe("signing in with a second factor", () => {
  it("login answers needs_second_factor with no cookie; the authenticator code opens the session (amr pwd + otp, AAL2)", async () => {
    const { publishableKey, user } = await setup();
    const guest = clientApi(publishableKey);
    const login = await guest.post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    expectNoSession(login);
    expect(login.body.factors).toEqual(["totp", "recovery_code"]);
    expect(guest.jar.size).toBe(0);
    expect((await guest.get("/client")).body.authenticated).toBe(false);

    await awayFromStepEdge();
    const verified = await guest.post("/auth/mfa/verify", { mfaToken: login.body.mfaToken, code: totpCode(user.secret) });
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body.session.status).toBe("ACTIVE");
    expect(verified.body.accessToken).toEqual(expect.any(String));
    expect(verified.body).not.toHaveProperty("sessionToken");
    expect(guest.jar.get("__gh_session")).toBeTruthy();
    expect(await sessionRow(verified.body.session.id)).toMatchObject({ amr: ["pwd", "otp"], aal: 2 });
    expect((await guest.get("/users/me")).body.email).toBe(user.email);
  });

  it("native: login has no sessionToken before the second factor; verify with _is_native=true returns one usable as a bearer", async () => {
    const { publishableKey, user } = await setup();
    const login = await clientApi(publishableKey).post("/auth/login?_is_native=true", { email: user.email, password: STRONG_PASSWORD });
    expectNoSession(login);
    await awayFromStepEdge();
    const verified = await clientApi(publishableKey).post("/auth/mfa/verify?_is_native=true", { mfaToken: login.body.mfaToken, code: totpCode(user.secret) });
    expect(verified.status, verified.text).toBe(200);
    const native = clientApi(publishableKey, { headers: { authorization: `Bearer ${verified.body.sessionToken}` } });
    expect((await native.get("/users/me")).status).toBe(200);
  });

  it("a recovery code signs in once (amr pwd + recovery), in any spelling; used again it fails", async () => {
    const { publishableKey, user } = await setup();
    const code = user.recoveryCodes[2] ?? "";
    const first = await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code: ` ${code.toUpperCase()} ` });
    expect(first.status, first.text).toBe(200);
    expect(await sessionRow(first.body.session.id)).toMatchObject({ amr: ["pwd", "recovery"], aal: 2 });
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code }), 400, "invalid_code");
    expect((await user.client.get("/users/me/mfa")).body.recoveryCodesLeft).toBe(9);
  });

  it("drift: codes of −1, 0 and +1 steps from server time pass; −2 and +2 do not", async () => {
    const { publishableKey, user } = await setup();
    await awayFromStepEdge();
    // Increasing steps, since a step at or before the last one spent is refused in any case.
    for (const [offset, passes] of [[-2, false], [-1, true], [0, true], [1, true], [2, false]] as const) {
      const res = await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code: totpCode(user.secret, offset) });
      if (passes) expect(res.status, `offset ${offset}: ${res.text}`).toBe(200);
      else expectProblem(res, 400, "invalid_code");
    }
  });

  it("each step is accepted once: the same code replayed on a new sign-in fails, and so does an older step's code", async () => {
    const { publishableKey, user } = await setup();
    await awayFromStepEdge();
    const code = totpCode(user.secret);
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code })).status).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code }), 400, "invalid_code");
    const earlier = totpCode(user.secret, -1);
    if (earlier !== code) {
      expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code: earlier }), 400, "invalid_code");
    }
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code: totpCode(user.secret, 1) })).status).toBe(200);
  });

  it("one code sent by 10 concurrent requests, each with its own mfaToken of the same user: exactly one session", async () => {
    const { publishableKey, user } = await setup();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => mfaToken(publishableKey, user.email)));
    await awayFromStepEdge();
    const code = totpCode(user.secret);
    const results = await Promise.all(tokens.map((token) => clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code })));
    expect(results.map((res) => res.status).sort()).toEqual([200, ...Array<number>(9).fill(400)]);
    for (const res of results.filter((r) => r.status !== 200)) expectProblem(res, 400, "invalid_code");
    const live = await getDb()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, user.userId), eq(sessions.status, "active")));
    // The enrolling client's own session, and the one winner.
    expect(live).toHaveLength(2);
  });

  it("one recovery code raced by 10 sign-ins: exactly one wins", async () => {
    const { publishableKey, user } = await setup();
    const tokens = await Promise.all(Array.from({ length: 10 }, () => mfaToken(publishableKey, user.email)));
    const code = user.recoveryCodes[7];
    const results = await Promise.all(tokens.map((token) => clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.status === 400)).toHaveLength(9);
    expect((await user.client.get("/users/me/mfa")).body.recoveryCodesLeft).toBe(9);
  });

  it("one mfaToken sent with the right code by 10 concurrent requests: one session", async () => {
    const { publishableKey, user } = await setup();
    const token = await mfaToken(publishableKey, user.email);
    await awayFromStepEdge();
    const codes = [totpCode(user.secret), ...user.recoveryCodes.slice(0, 9)];
    const results = await Promise.all(codes.map((code) => clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
  });
});

describe("the mfaToken: 5 minutes, single use, 5 wrong codes", () => {
  it("after 5 wrong codes even the right one fails; a fresh sign-in works", async () => {
    const { publishableKey, user } = await setup();
    const token = await mfaToken(publishableKey, user.email);
    const guest = clientApi(publishableKey);
    for (let i = 0; i < 5; i++) expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code: wrongCode(user.secret) }), 400, "invalid_code");
    await awayFromStepEdge();
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code: totpCode(user.secret) }), 400, "invalid_code");
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] }), 400, "invalid_code");
    expect(guest.jar.size).toBe(0);
    expect((await guest.post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code: totpCode(user.secret) })).status).toBe(200);
    expect((await user.client.get("/users/me/mfa")).body.recoveryCodesLeft).toBe(10);
  });

  it("an expired token fails; a used token cannot open a second session", async () => {
    const { publishableKey, user } = await setup();
    const token = await mfaToken(publishableKey, user.email);
    await getDb()
      .update(oneTimeCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeCodes.tokenHash, sha256(token)));
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] }), 400, "invalid_code");

    const live = await mfaToken(publishableKey, user.email);
    const [row] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenHash, sha256(live)));
    // expiresAt comes from the app's clock, createdAt from the database's: equal to within a second.
    expect(Math.abs((row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0) - 5 * 60_000)).toBeLessThan(1000);
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: live, code: user.recoveryCodes[0] })).status).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: live, code: user.recoveryCodes[1] }), 400, "invalid_code");
    expect((await user.client.get("/users/me/mfa")).body.recoveryCodesLeft).toBe(9);
  });

  it("a token is bound to its environment: another environment can neither redeem it nor use up its attempts", async () => {
    const { publishableKey, user } = await setup();
    const other = await newEnvironment();
    const token = await mfaToken(publishableKey, user.email);
    for (let attempt = 0; attempt < 3; attempt++) {
      expectProblem(await clientApi(other.publishableKey).post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] }), 400, "invalid_code");
    }
    const [row] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenHash, sha256(token)));
    expect(row?.failedAttempts).toBe(0);
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] })).status).toBe(200);
  });

  it("a user banned after the password step gets 403 user_banned, and the code is not spent", async () => {
    const { publishableKey, api, user } = await setup();
    const token = await mfaToken(publishableKey, user.email);
    await api.post(`/users/${user.userId}/ban`);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] }), 403, "user_banned");
    await api.post(`/users/${user.userId}/unban`);
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: await mfaToken(publishableKey, user.email), code: user.recoveryCodes[0] })).status).toBe(200);
  });

  it("hostile input: 400 invalid_request for malformed bodies, 400 invalid_code for unknown tokens and junk codes, never 5xx", async () => {
    const { publishableKey, user } = await setup();
    const guest = clientApi(publishableKey);
    for (const body of [{}, { mfaToken: "x" }, { code: "123456" }, { mfaToken: 1, code: "123456" }, { mfaToken: "x", code: 123456 }, { mfaToken: "x".repeat(201), code: "123456" }, { mfaToken: "x", code: "1".repeat(65) }, { mfaToken: "x", code: "1", extra: true }, []]) {
      expectProblem(await guest.post("/auth/mfa/verify", body), 400, "invalid_request");
    }
    expect(problemFields(await guest.post("/auth/mfa/verify", {})).sort()).toEqual(["code", "mfaToken"]);
    const token = await mfaToken(publishableKey, user.email);
    for (const code of ["' or 1=1 --", "%", "١٢٣٤٥٦", "0".repeat(64), "abcde-abcde"]) {
      expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code }), 400, "invalid_code");
    }
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: "not-a-token", code: "123456" }), 400, "invalid_code");
  });

  it("declares a per-IP limit: past `rateLimits.codeAttempts`, 429 rate_limited", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await env.api.patch("/environment", { rateLimits: { codeAttempts: { limit: 3, windowSeconds: 60 } } });
    const token = await mfaToken(env.publishableKey, user.email);
    // From an address of its own, whose count starts here.
    const caller = clientApi(env.publishableKey, { headers: { "x-forwarded-for": "203.0.113.9" } });
    for (let i = 0; i < 3; i++) expectProblem(await caller.post("/auth/mfa/verify", { mfaToken: token, code: "00000-00000" }), 400, "invalid_code");
    const limited = await caller.post("/auth/mfa/verify", { mfaToken: token, code: user.recoveryCodes[0] });
    expectProblem(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("wrong codes count toward the account's sign-in throttle", () => {
  it("regression guard: a fresh password sign-in does not wipe the wrong codes; past the threshold login and verify wait", async () => {
    const { publishableKey, api, user } = await setup();
    await api.patch("/environment", { rateLimits: { failedSignInThreshold: 5 } });
    const spare = await mfaToken(publishableKey, user.email);
    // Two tokens' worth of guesses, each token from a right password.
    for (let round = 0; round < 2; round++) {
      const token = await mfaToken(publishableKey, user.email);
      const guesses = round === 0 ? 3 : 2;
      for (let i = 0; i < guesses; i++) expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: token, code: `0000${i}-0000${round}` }), 400, "invalid_code");
    }
    expectProblem(await clientApi(publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD }), 429, "rate_limited");
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: spare, code: user.recoveryCodes[0] }), 429, "rate_limited");
    expect((await user.client.get("/users/me/mfa")).body.recoveryCodesLeft).toBe(10);

    // A password reset (a mailbox's proof) does not wipe them either while the second factor is owed.
    const guest = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, user.email);
    const reset = await guest.post("/auth/reset-password", { email: user.email, code, newPassword: "a brand new passphrase" });
    expect(reset.body.status).toBe("needs_second_factor");
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: reset.body.mfaToken, code: user.recoveryCodes[0] }), 429, "rate_limited");
  });
});

describe("no path reaches a session with the password alone", () => {
  it("reverification of an MFA user: the password alone is refused; password and code reopen the window", async () => {
    const { user } = await setup();
    await ageSignIn(user.session.session.id);
    const alone = await user.client.post("/auth/reverify", { password: STRONG_PASSWORD });
    expectProblem(alone, 400, "invalid_request");
    expect(problemFields(alone)).toEqual(["code"]);
    expectProblem(await user.client.post("/auth/reverify", { code: user.recoveryCodes[0] }), 400, "invalid_request");
    expectProblem(await user.client.post("/auth/reverify", { password: STRONG_PASSWORD, code: "00000-00000" }), 401, "invalid_credentials");
    // A wrong password spends no code: the same recovery code works with the right one.
    expectProblem(await user.client.post("/auth/reverify", { password: "not the password", code: user.recoveryCodes[0] }), 401, "invalid_credentials");
    expectProblem(await user.client.post("/users/me/mfa/recovery-codes"), 403, "reverification_required");
    await forgetUsedSteps(user.userId);
    await awayFromStepEdge();
    const reverified = await user.client.post("/auth/reverify", { password: STRONG_PASSWORD, code: totpCode(user.secret) });
    expect(reverified.status, reverified.text).toBe(200);
    expect((await sessionRow(user.session.session.id)).amr).toEqual(["pwd", "otp"]);
    expect((await user.client.post("/users/me/mfa/recovery-codes")).status).toBe(200);
    await ageSignIn(user.session.session.id);
    expect((await user.client.post("/auth/reverify", { password: STRONG_PASSWORD, code: user.recoveryCodes[0] })).status).toBe(401);
  });

  it("reverification with codes counts toward the account's throttle", async () => {
    const { api, user } = await setup();
    await api.patch("/environment", { rateLimits: { failedSignInThreshold: 5 } });
    await ageSignIn(user.session.session.id);
    for (let i = 0; i < 5; i++) expectProblem(await user.client.post("/auth/reverify", { password: STRONG_PASSWORD, code: `0000${i}-00000` }), 401, "invalid_credentials");
    expectProblem(await user.client.post("/auth/reverify", { password: STRONG_PASSWORD, code: user.recoveryCodes[0] }), 429, "rate_limited");
  });
});

describe("a password reset of an MFA user waits for the second factor", () => {
  const RESET_PASSWORD = "a brand new passphrase";

  /** A reset by someone who has the mailbox: it stops at the second factor, with no session. */
  async function heldReset(publishableKey: string, email: string, newPassword = RESET_PASSWORD) {
    const code = await emailedResetCode(publishableKey, email);
    const reset = await clientApi(publishableKey).post("/auth/reset-password", { email, code, newPassword });
    expectNoSession(reset);
    return reset.body.mfaToken as string;
  }

  async function loginAnswer(publishableKey: string, email: string, password: string) {
    const res = await clientApi(publishableKey).post("/auth/login", { email, password });
    return res.status === 200 ? res.body.status : res.body.code;
  }

  async function passwordResetEvents(userId: string) {
    return (await getDb().select().from(events).where(and(eq(events.subjectId, userId), eq(events.type, "user.password_reset")))).length;
  }

  it("regression: the reset set the password and ended every session before the second factor; now the verify does, and only then is the owner told", async () => {
    const { publishableKey, user } = await setup();
    const mfaToken = await heldReset(publishableKey, user.email);

    // Before the fix the password had changed and the owner's session was gone here.
    const oldSignIn = await clientApi(publishableKey).post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    expectNoSession(oldSignIn);
    expect(await loginAnswer(publishableKey, user.email, RESET_PASSWORD)).toBe("invalid_credentials");
    expect((await user.client.get("/client")).body.authenticated).toBe(true);
    expect((await user.client.get("/users/me")).status).toBe(200);
    expect(await emailCount(user.email, "password_changed")).toBe(0);
    expect(await passwordResetEvents(user.userId)).toBe(0);

    await awayFromStepEdge();
    const guest = clientApi(publishableKey);
    const verified = await guest.post("/auth/mfa/verify", { mfaToken, code: totpCode(user.secret) });
    expect(verified.status, verified.text).toBe(200);
    expect(await sessionRow(verified.body.session.id)).toMatchObject({ amr: ["email_code", "otp"], aal: 2 });
    expect((await guest.get("/users/me")).status).toBe(200);

    expect(await loginAnswer(publishableKey, user.email, RESET_PASSWORD)).toBe("needs_second_factor");
    expect(await loginAnswer(publishableKey, user.email, STRONG_PASSWORD)).toBe("invalid_credentials");
    expectProblem(await user.client.get("/users/me"), 401, "unauthorized");
    expect((await user.client.get("/client")).body.authenticated).toBe(false);
    // The old password's sign-in, stopped at its second factor, ended with the sessions.
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: oldSignIn.body.mfaToken, code: user.recoveryCodes[0] }), 400, "invalid_code");
    expect(await emailCount(user.email, "password_changed")).toBe(1);
    expect(await passwordResetEvents(user.userId)).toBe(1);
  });

  it("a recovery code answers it too; the spent mfaToken applies nothing a second time", async () => {
    const { publishableKey, user } = await setup();
    const mfaToken = await heldReset(publishableKey, user.email);
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken, code: user.recoveryCodes[0] })).status).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken, code: user.recoveryCodes[1] }), 400, "invalid_code");
    expect(await loginAnswer(publishableKey, user.email, RESET_PASSWORD)).toBe("needs_second_factor");
    expect(await passwordResetEvents(user.userId)).toBe(1);
  });

  it("regression: the held reset's argon2 hash stayed in the spent challenge's one_time_codes row until clean-up; verify now strips it", async () => {
    const { publishableKey, user } = await setup();
    const mfaToken = await heldReset(publishableKey, user.email);
    const challengeRow = async () => {
      const [row] = await getDb().select().from(oneTimeCodes).where(eq(oneTimeCodes.tokenHash, sha256(mfaToken)));
      if (!row) throw new Error("no challenge row");
      return row;
    };
    // Held until the factor: the hash is what the verify applies.
    expect((await challengeRow()).payload).toHaveProperty("passwordReset.passwordHash");
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken, code: user.recoveryCodes[0] })).status).toBe(200);
    const spent = await challengeRow();
    expect(spent.consumedAt).not.toBeNull();
    expect(spent.payload).not.toHaveProperty("passwordReset");
    expect(JSON.stringify(spent.payload)).not.toContain("$argon2");
    // The rest of the challenge (kind, methods, generation) is kept for the record.
    expect(spent.payload).toMatchObject({ kind: "second_factor" });
    expect(await loginAnswer(publishableKey, user.email, RESET_PASSWORD)).toBe("needs_second_factor");
  });

  it("a stale held reset never overwrites a newer password: a later reset, or a password change, in between ends it", async () => {
    const { publishableKey, user } = await setup();
    const first = await heldReset(publishableKey, user.email, "the first new passphrase");
    const second = await heldReset(publishableKey, user.email, "the second new passphrase");
    expect((await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: second, code: user.recoveryCodes[0] })).status).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: first, code: user.recoveryCodes[1] }), 400, "invalid_code");
    expect(await loginAnswer(publishableKey, user.email, "the second new passphrase")).toBe("needs_second_factor");
    expect(await loginAnswer(publishableKey, user.email, "the first new passphrase")).toBe("invalid_credentials");

    // The owner, signed in again, changes the password while someone's reset is held.
    const owner = clientApi(publishableKey);
    const signIn = await owner.post("/auth/login", { email: user.email, password: "the second new passphrase" });
    expect((await owner.post("/auth/mfa/verify", { mfaToken: signIn.body.mfaToken, code: user.recoveryCodes[2] })).status).toBe(200);
    const held = await heldReset(publishableKey, user.email, "the thief's passphrase");
    const changed = await owner.post("/users/me/password", { currentPassword: "the second new passphrase", newPassword: "the owner's passphrase" });
    expect(changed.status, changed.text).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: held, code: user.recoveryCodes[3] }), 400, "invalid_code");
    expect(await loginAnswer(publishableKey, user.email, "the owner's passphrase")).toBe("needs_second_factor");
    expect(await loginAnswer(publishableKey, user.email, "the thief's passphrase")).toBe("invalid_credentials");
  });

  it("two held resets answered at once: exactly one applies, and its password is the one that works", async () => {
    const { publishableKey, user } = await setup();
    const passwords = ["the first new passphrase", "the second new passphrase"];
    const tokens = [];
    for (const password of passwords) tokens.push(await heldReset(publishableKey, user.email, password));
    const answers = await Promise.all(
      tokens.map((mfaToken, i) => clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken, code: user.recoveryCodes[i] })),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    const winner = answers.findIndex((res) => res.status === 200);
    expect(await loginAnswer(publishableKey, user.email, passwords[winner] ?? "")).toBe("needs_second_factor");
    expect(await loginAnswer(publishableKey, user.email, passwords[1 - winner] ?? "")).toBe("invalid_credentials");
    expect(await passwordResetEvents(user.userId)).toBe(1);
  });

  it("a held reset applies nothing once the user is banned, or once its address is no longer the account's", async () => {
    const { publishableKey, api, user } = await setup();
    const beforeBan = await heldReset(publishableKey, user.email);
    await api.post(`/users/${user.userId}/ban`);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: beforeBan, code: user.recoveryCodes[0] }), 403, "user_banned");
    await api.post(`/users/${user.userId}/unban`);
    // The ban revoked every session, which ends the sign-ins then on their way: this one too.
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: beforeBan, code: user.recoveryCodes[0] }), 400, "invalid_code");
    expect(await loginAnswer(publishableKey, user.email, STRONG_PASSWORD)).toBe("needs_second_factor");

    const beforeMove = await heldReset(publishableKey, user.email);
    const moved = await api.patch(`/users/${user.userId}`, { email: uniqueEmail("moved") });
    expect(moved.status, moved.text).toBe(200);
    expectProblem(await clientApi(publishableKey).post("/auth/mfa/verify", { mfaToken: beforeMove, code: user.recoveryCodes[0] }), 400, "invalid_code");
    expect(await loginAnswer(publishableKey, moved.body.email, STRONG_PASSWORD)).toBe("needs_second_factor");
    expect(await loginAnswer(publishableKey, moved.body.email, RESET_PASSWORD)).toBe("invalid_credentials");
    expect(await passwordResetEvents(user.userId)).toBe(0);
  });
});

describe("guesses sent at once (review findings)", () => {
  it("regression: 10 wrong codes on one mfaToken at once were all judged (the cap was checked before any was counted); now at most 5 are", async () => {
    const { publishableKey, environmentId, user } = await setup();
    const token = await mfaToken(publishableKey, user.email);
    const guest = clientApi(publishableKey);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => guest.post("/auth/mfa/verify", { mfaToken: token, code: wrongCode(user.secret) })),
    );
    for (const answer of answers) expectProblem(answer, 400, "invalid_code");
    // Each judged wrong code extends the account's failure streak by one.
    const streak = await readFailureStreak(getDb(), `${environmentId}:signInFailures:id:${user.email.toLowerCase()}`);
    expect(streak?.failures).toBeLessThanOrEqual(5);
    await awayFromStepEdge();
    expectProblem(await guest.post("/auth/mfa/verify", { mfaToken: token, code: totpCode(user.secret) }), 400, "invalid_code");
  });

  it("regression: the per-IP limit alone let many addresses guess one account's codes at once; attempts now also count per account, across its tokens", async () => {
    const env = await mfaEnvironment();
    const user = await mfaUser(env.publishableKey, env.api);
    await env.api.patch("/environment", { rateLimits: { codeAttempts: { limit: 3, windowSeconds: 60 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      // A fresh token and a fresh address for every guess.
      const token = await mfaToken(env.publishableKey, user.email);
      const caller = clientApi(env.publishableKey, { headers: { "x-forwarded-for": `198.51.100.${10 + i}` } });
      statuses.push((await caller.post("/auth/mfa/verify", { mfaToken: token, code: wrongCode(user.secret) })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });
});
