import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailAddresses, oneTimeCodes, users } from "@/db/schema";
import { expectProblem, type ApiResponse } from "../helpers/api";
import { clientApi, emailCount, emailedResetCode } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

const NEW_PASSWORD = "a different long passphrase";

function wrongCode(code: string): string {
  return code === "000000" ? "111111" : "000000";
}

/** Everything a caller sees, byte for byte, except the request id that names the request. */
function answer(res: ApiResponse) {
  return { status: res.status, contentType: res.headers.get("content-type"), text: res.text.replace(res.body.requestId, "") };
}

describe("POST /_svc/auth/reset-password", () => {
  it("enumeration: unknown address, no live code and a wrong code answer byte-identically, password policy first", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { codeAttempts: { limit: 1000 } } });
    const withCode = uniqueEmail("with-code");
    const withoutCode = uniqueEmail("without-code");
    await createUser(api, { email: withCode, password: STRONG_PASSWORD });
    await createUser(api, { email: withoutCode, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, withCode);

    const attempts = [
      { email: uniqueEmail("unknown"), code },
      { email: withoutCode, code },
      { email: withCode, code: wrongCode(code) },
    ];
    // A weak password is refused before the address matters: before the fix only the
    // address with a live code got password_too_weak, the others invalid_code.
    const weak = [];
    for (const attempt of attempts) weak.push(await client.post("/auth/reset-password", { ...attempt, newPassword: "password" }));
    expectProblem(weak[0] as ApiResponse, 400, "password_too_weak");
    expect(answer(weak[1] as ApiResponse)).toEqual(answer(weak[0] as ApiResponse));
    expect(answer(weak[2] as ApiResponse)).toEqual(answer(weak[0] as ApiResponse));

    const wrong = [];
    for (const attempt of attempts) wrong.push(await client.post("/auth/reset-password", { ...attempt, newPassword: NEW_PASSWORD }));
    expectProblem(wrong[0] as ApiResponse, 400, "invalid_code");
    expect(answer(wrong[1] as ApiResponse)).toEqual(answer(wrong[0] as ApiResponse));
    expect(answer(wrong[2] as ApiResponse)).toEqual(answer(wrong[0] as ApiResponse));
    expect((await client.post("/auth/reset-password", { email: withCode, code, newPassword: NEW_PASSWORD })).status).toBe(200);
  });

  it("every try uses up an attempt of the address: after 20, the next answers 429 for unknown and known addresses alike", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { codeAttempts: { limit: 1000 } } });
    const withCode = uniqueEmail("with-code");
    const withoutCode = uniqueEmail("without-code");
    await createUser(api, { email: withCode, password: STRONG_PASSWORD });
    await createUser(api, { email: withoutCode, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, withCode);

    const refusals = [];
    for (const email of [uniqueEmail("unknown"), withoutCode, withCode]) {
      for (let i = 0; i < 20; i++) {
        expectProblem(await client.post("/auth/reset-password", { email, code: wrongCode(code), newPassword: NEW_PASSWORD }), 400, "invalid_code");
      }
      // Even the right code: the cap stops guessing, not only wrong guesses.
      const refused = await client.post("/auth/reset-password", { email, code, newPassword: NEW_PASSWORD });
      expectProblem(refused, 429, "rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3600);
      refusals.push({ ...refused.body, requestId: undefined, detail: undefined });
    }
    expect(refusals[1]).toEqual(refusals[0]);
    expect(refusals[2]).toEqual(refusals[0]);
    expect((await clientApi(publishableKey).post("/auth/login", { email: withCode, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it("every try also counts against the caller's IP, whatever address it names", async () => {
    const { publishableKey } = await newEnvironment();
    const client = clientApi(publishableKey, { headers: { "x-forwarded-for": "203.0.113.44" } });
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await client.post("/auth/reset-password", { email: uniqueEmail(), code: "123456", newPassword: NEW_PASSWORD })).status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it("a user banned after the code was sent: 403 user_banned and a full rollback, the code stays unused", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(api, { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, email);
    await api.post(`/users/${user.id}/ban`);
    expectProblem(await client.post("/auth/reset-password", { email, code, newPassword: NEW_PASSWORD }), 403, "user_banned");
    expect(client.jar.size).toBe(0);

    await api.post(`/users/${user.id}/unban`);
    // Before the fix the password had changed and the code was spent, although the answer was an error.
    expect((await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD })).status).toBe(200);
    const codes = await getDb()
      .select({ consumedAt: oneTimeCodes.consumedAt })
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "password_reset")));
    expect(codes).toEqual([{ consumedAt: null }]);
    // Unspent, but dead: the ban revoked every session, which ends the sign-ins then on their
    // way (a reset is one; tests/api/in-flight-sign-ins.test.ts). A new code works.
    expectProblem(await client.post("/auth/reset-password", { email, code, newPassword: NEW_PASSWORD }), 400, "invalid_code");
    const fresh = await emailedResetCode(publishableKey, email);
    expect((await client.post("/auth/reset-password", { email, code: fresh, newPassword: NEW_PASSWORD })).status).toBe(200);
  });

  it("a user deleted after the code was sent: invalid_code, no new password hash, the code not consumed", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(api, { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, email);
    await api.delete(`/users/${user.id}`);
    expectProblem(await client.post("/auth/reset-password", { email, code, newPassword: NEW_PASSWORD }), 400, "invalid_code");
    const [row] = await getDb().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    expect(row?.passwordHash).toBeNull();
    const codes = await getDb()
      .select({ consumedAt: oneTimeCodes.consumedAt })
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, "password_reset")));
    expect(codes).toEqual([{ consumedAt: null }]);
  });
});

describe("the password-changed notice of a reset", () => {
  it("regression: a reset through a verified secondary address told only that address; now the primary is told as well", async () => {
    const { publishableKey, api, environmentId } = await newEnvironment();
    const primary = uniqueEmail("primary");
    const secondary = uniqueEmail("secondary");
    const user = await createUser(api, { email: primary, password: STRONG_PASSWORD });
    // A verified secondary address, as the account's own verification link leaves it: it signs in, so it can reset.
    await getDb().insert(emailAddresses).values({ environmentId, userId: user.id, email: secondary, verifiedAt: new Date() });
    const client = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, secondary);
    expect((await client.post("/auth/reset-password", { email: secondary, code, newPassword: NEW_PASSWORD })).status).toBe(200);
    // Sent with the change, so they are there when the answer is.
    expect(await emailCount(primary, "password_changed")).toBe(1);
    expect(await emailCount(secondary, "password_changed")).toBe(1);
  });

  it("a reset through the primary address sends the notice there, once", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    await createUser(api, { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    const code = await emailedResetCode(publishableKey, email);
    expect((await client.post("/auth/reset-password", { email, code, newPassword: NEW_PASSWORD })).status).toBe(200);
    expect(await emailCount(email, "password_changed")).toBe(1);
  });
});

describe("POST /_svc/auth/forgot-password", () => {
  it("sends at most 10 codes a day per address; past that the answer is unchanged and no email goes out", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { emailSends: { limit: 1000 } } });
    const email = uniqueEmail();
    await createUser(api, { email, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    let code = "";
    for (let i = 0; i < 10; i++) code = await emailedResetCode(publishableKey, email);

    const unknown = uniqueEmail("unknown");
    for (let i = 0; i < 10; i++) await client.post("/auth/forgot-password", { email: unknown });
    const known = await client.post("/auth/forgot-password", { email });
    const other = await client.post("/auth/forgot-password", { email: unknown });
    expect(answer(known)).toEqual(answer(other));
    expect(known.status).toBe(200);
    // The send would happen after the answer: give it time to show up if it were made.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await emailCount(email)).toBe(10);
    // No newer code replaced the tenth one.
    expect((await client.post("/auth/reset-password", { email, code, newPassword: NEW_PASSWORD })).status).toBe(200);
  });
});
