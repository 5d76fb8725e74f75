import { describe, expect, it } from "vitest";
import { expectProblem } from "../helpers/api";
import { clientApi, codeIn, emailCount, latestEmail } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

describe("POST /_svc/auth/signup → verify", () => {
  it("emails a code, creates no session until verified, then creates user and session together", async () => {
    const { publishableKey, api } = await newEnvironment();
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD, name: "Ada King Lovelace", unsafeMetadata: { theme: "dark" } });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ token: expect.any(String), email });
    expect(started.headers.getSetCookie()).toEqual([]);
    expect((await api.post("/users/search", { email })).body.items).toEqual([]);
    expect((await client.get("/client")).body.authenticated).toBe(false);

    const mail = await latestEmail(email);
    expect(mail.template).toBe("sign_up_code");
    const verified = await client.post("/auth/signup/verify", { token: started.body.token, code: codeIn(mail.text) });
    expect(verified.status).toBe(200);
    expect(verified.body.user).toMatchObject({ email, firstName: "Ada", lastName: "King Lovelace", unsafeMetadata: { theme: "dark" } });
    expect(verified.body.user).not.toHaveProperty("privateMetadata");
    expect(verified.body.session.status).toBe("ACTIVE");
    expect(verified.body.accessToken).toMatch(/^ey/);
    const cookies = verified.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/__gh_session=[^;]+; .*HttpOnly/i);
    expect(cookies).toMatch(/SameSite=Lax/i);
    expect(cookies).toMatch(/__gh_session_hint=\d+/);

    const probe = await client.get("/client");
    expect(probe.body).toMatchObject({ authenticated: true, organizations: [], user: { user: { email }, session: { status: "ACTIVE", gates: [] } } });
  });

  it("returns the session token only to native callers", async () => {
    const { publishableKey } = await newEnvironment();
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const verified = await client.post("/auth/signup/verify?_is_native=true", { token: started.body.token, code: codeIn((await latestEmail(email)).text) });
    expect(verified.body.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const native = clientApi(publishableKey, { headers: { authorization: `Bearer ${verified.body.sessionToken}` } });
    expect((await native.get("/users/me")).body.email).toBe(email);
  });

  it("double-spend: 20 concurrent verifies with the right code open exactly one session", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { enabled: false } });
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const code = codeIn((await latestEmail(email)).text);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => clientApi(publishableKey).post("/auth/signup/verify", { token: started.body.token, code })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.code === "invalid_code")).toBe(true);
    const user = (await api.post("/users/search", { email })).body.items[0];
    expect((await api.get(`/users/${user.id}/sessions`)).body.items).toHaveLength(1);
  });

  it("brute force: after 5 wrong codes even the right code fails", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { enabled: false } });
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const code = codeIn((await latestEmail(email)).text);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      const res = await client.post("/auth/signup/verify", { token: started.body.token, code: wrong });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("invalid_code");
    }
    const late = await client.post("/auth/signup/verify", { token: started.body.token, code });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("invalid_code");
  });

  it("enumeration: sign-up for an existing address answers exactly like a new one and emails a notice", async () => {
    const { publishableKey, api } = await newEnvironment();
    const existing = uniqueEmail();
    await api.post("/users", { email: existing, password: STRONG_PASSWORD });
    const fresh = uniqueEmail();
    const client = clientApi(publishableKey);
    const a = await client.post("/auth/signup", { email: existing, password: STRONG_PASSWORD });
    const b = await client.post("/auth/signup", { email: fresh, password: STRONG_PASSWORD });
    expect(a.status).toBe(b.status);
    expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
    expect(a.body.email).toBe(existing);
    expect((await latestEmail(existing)).template).toBe("account_exists");
    expect((await latestEmail(fresh)).template).toBe("sign_up_code");
    // A code stands alone in the text (as codeIn reads it); the address itself may hold six digits.
    const notice = (await latestEmail(existing)).text;
    expect(() => codeIn(notice)).toThrow(/no 6-digit code/);
  });

  it("resend sends a new code and kills the old one", async () => {
    const { publishableKey } = await newEnvironment();
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const first = codeIn((await latestEmail(email)).text);
    const resent = await client.post("/auth/signup/resend", { token: started.body.token });
    expect(resent.status).toBe(200);
    expect(await emailCount(email)).toBe(2);
    const second = codeIn((await latestEmail(email)).text);
    if (first !== second) {
      expect((await client.post("/auth/signup/verify", { token: started.body.token, code: first })).body.code).toBe("invalid_code");
    }
    expect((await client.post("/auth/signup/verify", { token: started.body.token, code: second })).status).toBe(200);
    expect((await client.post("/auth/signup/resend", { token: "nope" })).body.code).toBe("invalid_code");
  });

  it("resend no longer resets the guess counter: 4 wrong, resend, 1 wrong and the new code is dead too", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { codeAttempts: { limit: 1000 }, emailSends: { limit: 1000 } } });
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const wrong = (code: string) => (code === "000000" ? "111111" : "000000");
    const first = codeIn((await latestEmail(email)).text);
    for (let i = 0; i < 4; i++) expectProblem(await client.post("/auth/signup/verify", { token: started.body.token, code: wrong(first) }), 400, "invalid_code");
    expect((await client.post("/auth/signup/resend", { token: started.body.token })).status).toBe(200);
    const second = codeIn((await latestEmail(email)).text);
    expectProblem(await client.post("/auth/signup/verify", { token: started.body.token, code: wrong(second) }), 400, "invalid_code");
    expectProblem(await client.post("/auth/signup/verify", { token: started.body.token, code: second }), 400, "invalid_code");
    // A token out of guesses gets no more codes: each one would be wasted mail.
    expectProblem(await client.post("/auth/signup/resend", { token: started.body.token }), 400, "invalid_code");
    expect(await emailCount(email)).toBe(2);
  });

  it("a new sign-up for an address cancels its older pending sign-ups", async () => {
    const { publishableKey } = await newEnvironment();
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    const older = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const olderCode = codeIn((await latestEmail(email)).text);
    const newer = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const newerCode = codeIn((await latestEmail(email)).text);
    expectProblem(await client.post("/auth/signup/verify", { token: older.body.token, code: olderCode }), 400, "invalid_code");
    expectProblem(await client.post("/auth/signup/resend", { token: older.body.token }), 400, "invalid_code");
    expect((await client.post("/auth/signup/verify", { token: newer.body.token, code: newerCode })).status).toBe(200);
  });

  it("guessing across tokens: 20 wrong codes a day per address, over all its sign-ups, then 429 even for the right code", async () => {
    const { publishableKey, api } = await newEnvironment();
    // Only the per-address daily cap is left to stop the guesser.
    await api.patch("/environment", { rateLimits: { signUp: { limit: 1000 }, codeAttempts: { limit: 1000 }, emailSends: { limit: 1000 } } });
    const client = clientApi(publishableKey);
    const email = uniqueEmail();
    for (let round = 0; round < 4; round++) {
      const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
      expect(started.status).toBe(200);
      const wrong = codeIn((await latestEmail(email)).text) === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i++) expectProblem(await client.post("/auth/signup/verify", { token: started.body.token, code: wrong }), 400, "invalid_code");
    }
    const last = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    const code = codeIn((await latestEmail(email)).text);
    const refused = await client.post("/auth/signup/verify", { token: last.body.token, code });
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3600);
    expect((await api.post("/users/search", { email })).body.items).toEqual([]);
    // Another address is not affected.
    const other = uniqueEmail();
    const fresh = await client.post("/auth/signup", { email: other, password: STRONG_PASSWORD });
    expect((await client.post("/auth/signup/verify", { token: fresh.body.token, code: codeIn((await latestEmail(other)).text) })).status).toBe(200);
  });

  it("code emails are capped at 10 a day per address over sign-ups and resends, alike for existing accounts", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { signUp: { limit: 1000 }, emailSends: { limit: 1000 } } });
    const existing = uniqueEmail();
    await api.post("/users", { email: existing, password: STRONG_PASSWORD });
    const client = clientApi(publishableKey);
    for (const email of [uniqueEmail(), existing]) {
      const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
      for (let i = 0; i < 4; i++) expect((await client.post("/auth/signup/resend", { token: started.body.token })).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await client.post("/auth/signup", { email, password: STRONG_PASSWORD })).status).toBe(200);
      expect(await emailCount(email)).toBe(10);
      const refused = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
      expectProblem(refused, 429, "rate_limited");
      expect(await emailCount(email)).toBe(10);
    }
  });

  it("legal consent: 422 without it when required, recorded when given (no LEGAL gate)", async () => {
    const { publishableKey, api } = await newEnvironment();
    await api.patch("/environment", { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } });
    const client = clientApi(publishableKey);
    expect((await client.get("/legal")).body).toEqual({ requireConsent: true, termsUrl: "https://example.com/terms", privacyUrl: null });
    const email = uniqueEmail();
    const refused = await client.post("/auth/signup", { email, password: STRONG_PASSWORD });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("legal_consent_required");
    const started = await client.post("/auth/signup", { email, password: STRONG_PASSWORD, legalConsentAccepted: true });
    const verified = await client.post("/auth/signup/verify", { token: started.body.token, code: codeIn((await latestEmail(email)).text) });
    expect(verified.body.session).toMatchObject({ status: "ACTIVE", gates: [] });
  });

  it("refuses weak passwords, oversized unsafeMetadata, bad emails and a missing CAPTCHA", async () => {
    const { publishableKey, api } = await newEnvironment();
    const client = clientApi(publishableKey);
    expect((await client.post("/auth/signup", { email: uniqueEmail(), password: "password" })).body.code).toBe("password_too_weak");
    const big = await client.post("/auth/signup", { email: uniqueEmail(), password: STRONG_PASSWORD, unsafeMetadata: { x: "y".repeat(600) } });
    expect(big.status).toBe(400);
    expect(big.body.code).toBe("metadata_too_large");
    expect((await client.post("/auth/signup", { email: "not-an-email", password: STRONG_PASSWORD })).body.code).toBe("invalid_request");

    await api.patch("/environment", { signUp: { captcha: { enabled: true, provider: "test", testPassToken: "pass-me" } } });
    const missing = await client.post("/auth/signup", { email: uniqueEmail(), password: STRONG_PASSWORD });
    expect(missing.status).toBe(400);
    expect(missing.body.properties.errors[0].field).toBe("captchaToken");
    expect((await client.post("/auth/signup", { email: uniqueEmail(), password: STRONG_PASSWORD, captchaToken: "wrong" })).status).toBe(400);
    expect((await client.post("/auth/signup", { email: uniqueEmail(), password: STRONG_PASSWORD, captchaToken: "pass-me" })).status).toBe(200);
  });

  it("answers 401 environment_not_found for an unknown publishable key", async () => {
    const res = await clientApi("pk_test_unknownunknownunknown").post("/auth/signup", { email: uniqueEmail(), password: STRONG_PASSWORD });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("environment_not_found");
  });
});
