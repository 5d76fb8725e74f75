import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sessions, users } from "@/db/schema";
import { expectProblem } from "../helpers/api";
import { ageSignIn, clientApi, codeIn, latestEmail, signedUpClient } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

async function sessionRow(id: string) {
  const [row] = await getDb().select().from(sessions).where(eq(sessions.id, id));
  if (!row) throw new Error("no session row");
  return row;
}

describe("PENDING sessions may only clear their gate (issue 7 item 9)", () => {
  it("regression: a session with the email gate open could read and change the account; now 403 session_pending naming the gate", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await getDb().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, session.user.id));

    for (const [method, path, body] of [
      ["GET", "/users/me", undefined],
      ["PATCH", "/users/me", { firstName: "Mallory" }],
      ["GET", "/users/me/sessions", undefined],
      ["POST", "/users/me/sessions/revoke-others", undefined],
      ["GET", "/users/me/email-addresses", undefined],
      ["POST", "/users/me/email-addresses", { email: uniqueEmail("added") }],
      ["GET", "/users/me/data-requests", undefined],
      ["POST", "/auth/token", undefined],
    ] as const) {
      const res = method === "GET" ? await client.get(path) : method === "PATCH" ? await client.patch(path, body) : await client.post(path, body);
      expectProblem(res, 403, "session_pending");
      expect(res.body.properties.currentGate, `${method} ${path}`).toEqual({ key: "EMAIL_VERIFICATION" });
    }
    const [user] = await getDb().select().from(users).where(eq(users.id, session.user.id));
    expect(user?.firstName).toBe("Test");

    // What a PENDING session may do: the boot probe, its gate's own operation, reverification
    // (a session held by MFA_ENROLLMENT proves its password before enrolling), logout.
    expect((await client.post("/auth/reverify", { password: STRONG_PASSWORD })).status).toBe(200);
    expectProblem(await client.get("/users/me"), 403, "session_pending");
    const probe = await client.get("/client");
    expect(probe.body.user.session).toMatchObject({ status: "PENDING", currentGate: { key: "EMAIL_VERIFICATION" } });
    expect((await client.post("/users/me/email-verification/resend")).status).toBe(200);
    expect((await client.post("/auth/logout")).status).toBe(200);
    expect((await client.get("/client")).body.authenticated).toBe(false);
  });

  it("a session pending on consent may accept the terms, and is ACTIVE after", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await api.patch("/environment", { legal: { requireConsent: true, termsUrl: "https://example.com/terms" } });
    const blocked = await client.get("/users/me");
    expectProblem(blocked, 403, "session_pending");
    expect(blocked.body.properties.currentGate).toEqual({ key: "LEGAL_ACCEPTANCE" });
    const accepted = await client.post("/auth/legal/accept");
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe("ACTIVE");
    expect((await client.get("/users/me")).status).toBe(200);
  });
});

describe("sessions record how they were proven (issue 7 item 10)", () => {
  it("sign-up verification records pwd + email_code, password sign-in pwd, a reset email_code; all AAL1", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail();
    const { session: signedUp } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const afterSignUp = await sessionRow(signedUp.session.id);
    expect(afterSignUp).toMatchObject({ amr: ["pwd", "email_code"], aal: 1, reverifiedAt: null });
    expect(afterSignUp.authenticatedAt.getTime()).toBe(afterSignUp.createdAt.getTime());

    const login = await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(await sessionRow(login.body.session.id)).toMatchObject({ amr: ["pwd"], aal: 1 });

    const resetter = clientApi(publishableKey);
    await resetter.post("/auth/forgot-password", { email });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const code = codeIn((await latestEmail(email)).text);
    const reset = await resetter.post("/auth/reset-password", { email, code, newPassword: "a brand new passphrase" });
    expect(reset.status, reset.text).toBe(200);
    expect(await sessionRow(reset.body.session.id)).toMatchObject({ amr: ["email_code"], aal: 1 });
  });

  it("reverification records reverifiedAt and its method, and reopens the sensitive window", async () => {
    const { publishableKey } = await newEnvironment();
    const { client, session } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    await ageSignIn(session.session.id);
    expectProblem(await client.post("/users/me/delete/request", { confirmation: "x" }), 403, "reverification_required");
    expectProblem(await client.post("/auth/reverify", { password: "wrong password here" }), 401, "invalid_credentials");
    expect((await sessionRow(session.session.id)).reverifiedAt).toBeNull();
    const reverified = await client.post("/auth/reverify", { password: STRONG_PASSWORD });
    expect(reverified.status).toBe(200);
    const row = await sessionRow(session.session.id);
    expect(row.reverifiedAt?.toISOString()).toBe(reverified.body.lastVerifiedAt);
    expect(row.amr).toEqual(["pwd", "email_code"]);
    expect(row.authenticatedAt.getTime()).toBeLessThan(row.reverifiedAt?.getTime() ?? 0);
  });
});

describe("reverification shares the account's password throttle (review finding)", () => {
  it("regression: a stolen session could guess the password at reverify with no streak throttle; now it waits like sign-in, and guesses add up across both", async () => {
    const { publishableKey, api } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    await api.patch("/environment", { rateLimits: { signIn: { limit: 1000, windowSeconds: 10 }, failedSignInThreshold: 5 } });
    await ageSignIn(session.session.id);
    for (let i = 0; i < 3; i++) expectProblem(await client.post("/auth/reverify", { password: `wrong guess number ${i}` }), 401, "invalid_credentials");
    // One more at the sign-in page, and a fifth back at reverify: the threshold.
    expectProblem(await clientApi(publishableKey).post("/auth/login", { email, password: "bad guess at login" }), 401, "invalid_credentials");
    expectProblem(await client.post("/auth/reverify", { password: "the fifth wrong one" }), 401, "invalid_credentials");
    // Past the threshold even the right password waits out the throttle, as at sign-in.
    const throttled = await client.post("/auth/reverify", { password: STRONG_PASSWORD });
    expectProblem(throttled, 429, "rate_limited");
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await sessionRow(session.session.id)).reverifiedAt).toBeNull();
  });
});

