import { eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, sessions } from "@/db/schema";
import { expectProblem } from "../helpers/api";
import { ageSignIn, clientApi, emailedResetCode, signedUpClient } from "../helpers/client";
import { STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { addPasskey, enableTotp, passkeyUser } from "../helpers/passkeys";
import { SoftwareAuthenticator } from "../helpers/webauthn-authenticator";

async function sessionRow(id: string) {
  const [row] = await getDb().select().from(sessions).where(eq(sessions.id, id));
  if (!row) throw new Error("no session row");
  return row;
}

/** A user with a passkey and an authenticator app, and a browser whose password sign-in stopped at the second factor. */
async function challengedUser(authenticatorOptions?: Parameters<typeof passkeyUser>[0]) {
  const user = await passkeyUser(authenticatorOptions);
  await enableTotp(user.environmentId, user.userId);
  const browser = clientApi(user.publishableKey);
  const login = await browser.post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
  expect(login.status, login.text).toBe(200);
  expect(login.body).toMatchObject({ status: "needs_second_factor", factors: ["totp", "passkey"] });
  return { ...user, browser, mfaToken: login.body.mfaToken as string };
}

describe("a passkey as the second factor", () => {
  it("answers the challenge: options name the user's passkeys, and the session opens with amr [pwd, webauthn] at aal 2", async () => {
    const { browser, mfaToken, authenticator, userId, origin } = await challengedUser();
    const options = await browser.post("/auth/mfa/passkey/options", { mfaToken });
    expect(options.status, options.text).toBe(200);
    expect(options.body.options).toMatchObject({ userVerification: "preferred", allowCredentials: [{ id: authenticator.id, type: "public-key" }] });
    expect(new URL(origin).hostname).toBe(options.body.options.rpId);

    const res = await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(options.body.options) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ session: { status: "ACTIVE" }, user: { id: userId }, accessToken: expect.any(String) });
    expect(res.headers.getSetCookie().join("\n")).toMatch(/__gh_session=/);
    const row = await sessionRow(res.body.session.id);
    expect(row.amr).toEqual(["pwd", "webauthn"]);
    expect(row.aal).toBe(2);
  });

  it("regression: after a password reset it is the passkey's answer, not the reset, that sets the new password and ends the other sessions", async () => {
    const { publishableKey, environmentId, userId, email, client, authenticator } = await passkeyUser();
    await enableTotp(environmentId, userId);
    const browser = clientApi(publishableKey);
    const reset = await browser.post("/auth/reset-password", { email, code: await emailedResetCode(publishableKey, email), newPassword: "a brand new passphrase" });
    expect(reset.body).toMatchObject({ status: "needs_second_factor", factors: ["totp", "passkey"] });
    expect((await client.get("/users/me")).status).toBe(200);

    const { mfaToken } = reset.body;
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    const res = await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(options) });
    expect(res.status, res.text).toBe(200);
    expect((await sessionRow(res.body.session.id)).amr).toEqual(["email_code", "webauthn"]);
    expectProblem(await client.get("/users/me"), 401, "unauthorized");
    expect((await clientApi(publishableKey).post("/auth/login", { email, password: "a brand new passphrase" })).body.status).toBe("needs_second_factor");
    expectProblem(await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD }), 401, "invalid_credentials");
  });

  it("_is_native=true also returns the session token", async () => {
    const { browser, mfaToken, authenticator } = await challengedUser();
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    const res = await browser.post("/auth/mfa/passkey/verify?_is_native=true", { mfaToken, response: authenticator.assert(options) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.sessionToken).toEqual(expect.any(String));
  });

  it("a touch is enough here (user verification preferred): the password was the first factor", async () => {
    const { browser, mfaToken, authenticator } = await challengedUser();
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    const res = await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(options, { flags: { uv: false } }) });
    expect(res.status, res.text).toBe(200);
  });

  it("with mfa.required, a user whose only factor is a passkey is asked for it, and it answers", async () => {
    const { publishableKey, email, api, authenticator } = await passkeyUser();
    await api.patch("/environment", { mfa: { required: true } });
    const browser = clientApi(publishableKey);
    const login = await browser.post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(login.body).toMatchObject({ status: "needs_second_factor", factors: ["passkey"] });
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken: login.body.mfaToken })).body.options;
    const res = await browser.post("/auth/mfa/passkey/verify", { mfaToken: login.body.mfaToken, response: authenticator.assert(options) });
    expect(res.status, res.text).toBe(200);
    expect((await sessionRow(res.body.session.id)).amr).toEqual(["pwd", "webauthn"]);
  });

  it("another user's passkey does not answer: 400 invalid_code, counted against the mfaToken until it dies", async () => {
    const { browser, mfaToken, authenticator, publishableKey, origin } = await challengedUser();
    const { client: neighbour } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const { authenticator: neighbours } = await addPasskey(neighbour, new SoftwareAuthenticator(origin));

    for (let i = 0; i < 5; i++) {
      const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
      expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: neighbours.assert(options) }), 400, "invalid_code");
    }
    // Five wrong answers end the token: the right passkey no longer helps.
    expectProblem(await browser.post("/auth/mfa/passkey/options", { mfaToken }), 400, "invalid_code");
    const fresh = { challenge: Buffer.from("anything").toString("base64url") };
    expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(fresh) }), 400, "invalid_code");
    expect((await browser.get("/client")).body.authenticated).toBe(false);
  });

  it("a replayed response, a wrong origin, and a challenge issued for a sign-in each fail with 400 invalid_code", async () => {
    // A counterless passkey, so that only the spent challenge can refuse the replay.
    const { browser, mfaToken, authenticator, publishableKey, email } = await challengedUser({ counting: false });
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(options, { origin: "https://evil.example" }) }), 400, "invalid_code");
    const signIn = (await clientApi(publishableKey).post("/auth/passkey/options")).body.options;
    expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(signIn) }), 400, "invalid_code");

    const response = authenticator.assert(options);
    expect((await browser.post("/auth/mfa/passkey/verify", { mfaToken, response })).status).toBe(200);
    // The mfaToken is spent with the session; a second login's token with the same response fails on the spent challenge.
    const again = clientApi(publishableKey);
    const login = await again.post("/auth/login", { email, password: STRONG_PASSWORD });
    expectProblem(await again.post("/auth/mfa/passkey/verify", { mfaToken: login.body.mfaToken, response }), 400, "invalid_code");
  });

  it("an unknown or used mfaToken is 400 invalid_code for the options and the answer", async () => {
    const { browser, mfaToken, authenticator } = await challengedUser();
    const bogus = "mfa_not-a-real-token";
    expectProblem(await browser.post("/auth/mfa/passkey/options", { mfaToken: bogus }), 400, "invalid_code");
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken: bogus, response: authenticator.assert(options) }), 400, "invalid_code");
    expect((await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(options) })).status).toBe(200);
    expectProblem(await browser.post("/auth/mfa/passkey/options", { mfaToken }), 400, "invalid_code");
  });

  it("a user banned after the password step gets 403 user_banned, and no session", async () => {
    const { browser, mfaToken, authenticator, api, userId } = await challengedUser();
    const options = (await browser.post("/auth/mfa/passkey/options", { mfaToken })).body.options;
    expect((await api.post(`/users/${userId}/ban`)).status).toBe(200);
    expectProblem(await browser.post("/auth/mfa/passkey/verify", { mfaToken, response: authenticator.assert(options) }), 403, "user_banned");
    expect((await browser.get("/client")).body.authenticated).toBe(false);
  });

  it("a user without a passkey gets 400 invalid_request for passkey options", async () => {
    const user = await passkeyUser();
    expect((await user.client.delete(`/users/me/passkeys/${user.passkey.id}`)).status).toBe(200);
    await enableTotp(user.environmentId, user.userId);
    const browser = clientApi(user.publishableKey);
    const login = await browser.post("/auth/login", { email: user.email, password: STRONG_PASSWORD });
    expect(login.body.factors).toEqual(["totp"]);
    expectProblem(await browser.post("/auth/mfa/passkey/options", { mfaToken: login.body.mfaToken }), 400, "invalid_request");
  });
});

describe("reverifying with a passkey", () => {
  it("opens the reverification window: a stale session may make sensitive changes again, with webauthn added to amr", async () => {
    const { client, session, authenticator, environmentId } = await passkeyUser();
    const { amr } = await sessionRow(session.session.id);
    await ageSignIn(session.session.id);
    expectProblem(await client.post("/users/me/passkeys/registration-options"), 403, "reverification_required");

    const options = await client.post("/auth/reverify/passkey/options");
    expect(options.status, options.text).toBe(200);
    expect(options.body.options).toMatchObject({ userVerification: "preferred", allowCredentials: [{ id: authenticator.id, type: "public-key" }] });
    const res = await client.post("/auth/reverify/passkey", { response: authenticator.assert(options.body.options) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ lastVerifiedAt: expect.any(String), validUntil: expect.any(String) });
    expect(new Date(res.body.validUntil).getTime() - new Date(res.body.lastVerifiedAt).getTime()).toBe(600_000);

    expect((await client.post("/users/me/passkeys/registration-options")).status).toBe(200);
    const row = await sessionRow(session.session.id);
    expect(row.amr).toEqual([...amr, "webauthn"]);
    const [event] = await getDb().select().from(events).where(eq(events.type, "session.reverified"));
    expect(event).toMatchObject({ environmentId, data: { method: "webauthn" } });
  });

  it("another user's passkey, a replayed response or a foreign origin proves nothing: 401 invalid_credentials", async () => {
    const { client, session, authenticator, publishableKey, origin } = await passkeyUser();
    const { client: neighbour } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const { authenticator: neighbours } = await addPasskey(neighbour, new SoftwareAuthenticator(origin));
    await ageSignIn(session.session.id);

    const options = (await client.post("/auth/reverify/passkey/options")).body.options;
    expectProblem(await client.post("/auth/reverify/passkey", { response: neighbours.assert(options) }), 401, "invalid_credentials");
    expectProblem(await client.post("/auth/reverify/passkey", { response: authenticator.assert(options, { origin: "https://evil.example" }) }), 401, "invalid_credentials");
    // The neighbour's own reverification challenge does not serve this session either.
    const theirs = (await neighbour.post("/auth/reverify/passkey/options")).body.options;
    expectProblem(await client.post("/auth/reverify/passkey", { response: authenticator.assert(theirs) }), 401, "invalid_credentials");
    expectProblem(await client.post("/users/me/passkeys/registration-options"), 403, "reverification_required");

    const response = authenticator.assert(options);
    expect((await client.post("/auth/reverify/passkey", { response })).status).toBe(200);
    expectProblem(await client.post("/auth/reverify/passkey", { response }), 401, "invalid_credentials");
  });

  it("needs a session, and a passkey: 401 unauthorized without one, 400 invalid_request for a user with none", async () => {
    const user = await passkeyUser();
    expectProblem(await clientApi(user.publishableKey).post("/auth/reverify/passkey/options"), 401, "unauthorized");
    const { client: plain } = await signedUpClient(user.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    expectProblem(await plain.post("/auth/reverify/passkey/options"), 400, "invalid_request");
  });
});

describe("a passkey-only user where MFA is required (review findings)", () => {
  it("regression: the password alone reopened the sensitive window of a user whose second factor is a passkey; now the passkey is asked for", async () => {
    const { client, session, api, authenticator } = await passkeyUser();
    await api.patch("/environment", { mfa: { required: true } });
    await ageSignIn(session.session.id);
    const refused = await client.post("/auth/reverify", { password: STRONG_PASSWORD });
    expectProblem(refused, 401, "invalid_credentials");
    expect(refused.body.detail).toMatch(/passkey/);
    expectProblem(await client.post("/users/me/passkeys/registration-options"), 403, "reverification_required");
    const options = (await client.post("/auth/reverify/passkey/options")).body.options;
    expect((await client.post("/auth/reverify/passkey", { response: authenticator.assert(options) })).status).toBe(200);
  });

  it("regression: an enrollment token issued before the user added a passkey still enrolled an app and opened a session; now it is refused", async () => {
    const { client, publishableKey, email, api, origin } = await passkeyUser();
    // The only passkey goes while the environment does not yet require MFA; the user then has no factor.
    const passkeys = (await client.get("/users/me/passkeys")).body.items as { id: string }[];
    for (const passkey of passkeys) expect((await client.delete(`/users/me/passkeys/${passkey.id}`)).status).toBe(200);
    await api.patch("/environment", { mfa: { required: true } });
    const browser = clientApi(publishableKey);
    const login = await browser.post("/auth/login", { email, password: STRONG_PASSWORD });
    expect(login.body).toMatchObject({ status: "needs_mfa_enrollment" });
    const started = await browser.post("/auth/mfa/enroll", { mfaToken: login.body.mfaToken });
    expect(started.status, started.text).toBe(200);
    // Meanwhile the user adds a passkey from the existing session (recent sign-in, the gate's own operation).
    await addPasskey(client, new SoftwareAuthenticator(origin));
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(started.body.secret) }).generate();
    const res = await browser.post("/auth/mfa/enroll/confirm", { mfaToken: login.body.mfaToken, code });
    expectProblem(res, 400, "invalid_code");
    expect(browser.jar.size).toBe(0);
  });
});
