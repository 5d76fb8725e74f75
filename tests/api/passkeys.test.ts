import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, passkeys, webauthnChallenges } from "@/db/schema";
import { sha256 } from "@/lib/crypto/tokens";
import { expectProblem } from "../helpers/api";
import { ageSignIn, clientApi, emailCount, latestEmail, signedUpClient } from "../helpers/client";
import { deadPort } from "../helpers/dead-port";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { addPasskey, enableTotp, originOf, passkeyUser } from "../helpers/passkeys";
import { SoftwareAuthenticator } from "../helpers/webauthn-authenticator";

async function storedPasskey(id: string) {
  const [row] = await getDb().select().from(passkeys).where(eq(passkeys.id, id));
  return row;
}

describe("adding a passkey", () => {
  it("offers discoverable-credential options for this RP and stores only the challenge's hash", async () => {
    const env = await newEnvironment();
    const { publishableKey, api } = env;
    await api.patch("/environment", { branding: { applicationName: "Nordlys" } });
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);

    const res = await client.post("/users/me/passkeys/registration-options");
    expect(res.status, res.text).toBe(200);
    const options = res.body;
    expect(options.rp).toEqual({ id: env.frontendHost, name: "Nordlys" });
    expect(options.user).toMatchObject({ name: email });
    // The user handle is the user id's 16 bytes: stable, opaque, no email inside.
    expect(Buffer.from(options.user.id, "base64url").toString("hex")).toBe(session.user.id.replaceAll("-", ""));
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", requireResidentKey: true, userVerification: "preferred" });
    expect(options.excludeCredentials).toEqual([]);
    expect(options.attestation).toBe("none");
    expect(options.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toEqual([-8, -7, -257]);
    expect(options.timeout).toBe(300_000);

    const [row] = await getDb().select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, session.user.id));
    expect(row).toMatchObject({ purpose: "registration", challengeHash: sha256(options.challenge), consumedAt: null });
    expect(row?.challengeHash).not.toContain(options.challenge);
    const life = (row?.expiresAt.getTime() ?? 0) - Date.now();
    expect(life).toBeGreaterThan(4 * 60_000);
    expect(life).toBeLessThanOrEqual(5 * 60_000);
  });

  it("stores the verified credential, audits it, tells the primary address, and lists it in excludeCredentials next time", async () => {
    const env = await newEnvironment();
    const { publishableKey, environmentId } = env;
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const authenticator = new SoftwareAuthenticator(originOf(env));
    const options = await client.post("/users/me/passkeys/registration-options");
    const res = await client.post("/users/me/passkeys", { response: authenticator.register(options.body), name: "MacBook Touch ID" });

    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name: "MacBook Touch ID",
      createdAt: expect.any(String),
      lastUsedAt: null,
      deviceType: "multiDevice",
      backedUp: true,
      transports: ["internal", "hybrid"],
    });
    const row = await storedPasskey(res.body.id);
    expect(row).toMatchObject({
      environmentId,
      userId: session.user.id,
      credentialId: authenticator.id,
      counter: 1,
      deviceType: "multiDevice",
      backedUp: true,
      aaguid: "00000000-0000-0000-0000-000000000000",
    });
    expect(row?.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);

    const [event] = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.environmentId, environmentId), eq(events.type, "passkey.added")));
    expect(event).toMatchObject({ subjectId: session.user.id, actorId: session.user.id, data: { passkeyId: res.body.id } });

    const notice = await latestEmail(email, "passkey_added");
    expect(notice.text).toContain("MacBook Touch ID");
    expect(notice.text).toMatch(/https?:\/\/\S+\/account/);

    const next = await client.post("/users/me/passkeys/registration-options");
    expect(next.body.excludeCredentials).toEqual([{ id: authenticator.id, type: "public-key", transports: ["internal", "hybrid"] }]);
  });

  it("names unnamed passkeys Passkey, Passkey 2, … and lists them oldest first", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    await addPasskey(client, new SoftwareAuthenticator(originOf(env)));
    await addPasskey(client, new SoftwareAuthenticator(originOf(env)));
    const list = await client.get("/users/me/passkeys");
    expect(list.status).toBe(200);
    expect(list.body.items.map((item: { name: string }) => item.name)).toEqual(["Passkey", "Passkey 2"]);
  });

  it("needs a recent sign-in: 403 reverification_required for the options and the registration", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const { client, session } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const options = await client.post("/users/me/passkeys/registration-options");
    await ageSignIn(session.session.id);
    expectProblem(await client.post("/users/me/passkeys/registration-options"), 403, "reverification_required");
    const authenticator = new SoftwareAuthenticator(originOf(env));
    expectProblem(await client.post("/users/me/passkeys", { response: authenticator.register(options.body) }), 403, "reverification_required");
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, session.user.id))).toEqual([]);
  });

  it("needs a session: 401 unauthorized", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const anonymous = clientApi(publishableKey);
    expectProblem(await anonymous.post("/users/me/passkeys/registration-options"), 401, "unauthorized");
    expectProblem(await anonymous.get("/users/me/passkeys"), 401, "unauthorized");
  });

  it("refuses a response from a foreign origin, for another RP ID, of the wrong type or for an unknown challenge, and stores nothing", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const { client, session } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const options = (await client.post("/users/me/passkeys/registration-options")).body;
    for (const overrides of [
      { origin: "https://evil.example" },
      { origin: "http://localhost:4000" },
      { rpId: "evil.example" },
      { type: "webauthn.get" },
      { challenge: Buffer.from("a challenge nobody issued").toString("base64url") },
      { flags: { up: false } },
    ]) {
      const res = await client.post("/users/me/passkeys", { response: new SoftwareAuthenticator(originOf(env)).register(options, overrides) });
      expectProblem(res, 400, "invalid_request");
      expect(res.body.properties.errors[0].field, JSON.stringify(overrides)).toBe("response");
    }
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, session.user.id))).toEqual([]);
    // The refusals spent nothing: the options still register a well-formed response.
    expect((await client.post("/users/me/passkeys", { response: new SoftwareAuthenticator(originOf(env)).register(options) })).status).toBe(201);
  });

  it("a challenge answers one registration: the same response replayed is refused", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const options = (await client.post("/users/me/passkeys/registration-options")).body;
    const response = new SoftwareAuthenticator(originOf(env)).register(options);
    const attempts = await Promise.all(Array.from({ length: 5 }, () => client.post("/users/me/passkeys", { response })));
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    expect((await client.get("/users/me/passkeys")).body.items).toHaveLength(1);
  });

  it("a challenge issued to another user, or for a sign-in, does not register a passkey", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const { client: other } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const othersOptions = (await other.post("/users/me/passkeys/registration-options")).body;
    const signInOptions = (await clientApi(publishableKey).post("/auth/passkey/options")).body.options;
    const mine = (await client.post("/users/me/passkeys/registration-options")).body;
    for (const challenge of [othersOptions.challenge, signInOptions.challenge]) {
      const response = new SoftwareAuthenticator(originOf(env)).register({ ...mine, challenge });
      expectProblem(await client.post("/users/me/passkeys", { response }), 400, "invalid_request");
    }
  });

  it("an expired challenge registers nothing", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const { client, session } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const options = (await client.post("/users/me/passkeys/registration-options")).body;
    await getDb()
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.userId, session.user.id));
    expectProblem(await client.post("/users/me/passkeys", { response: new SoftwareAuthenticator(originOf(env)).register(options) }), 400, "invalid_request");
  });

  it("a credential already registered in the environment is 409 identifier_exists, for its owner and for anyone else", async () => {
    const { publishableKey, client, authenticator } = await passkeyUser();
    const again = (await client.post("/users/me/passkeys/registration-options")).body;
    expectProblem(await client.post("/users/me/passkeys", { response: authenticator.register(again) }), 409, "identifier_exists");
    const { client: other } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const othersOptions = (await other.post("/users/me/passkeys/registration-options")).body;
    expectProblem(await other.post("/users/me/passkeys", { response: authenticator.register(othersOptions) }), 409, "identifier_exists");
  });

  it("no notice, no passkey: with the mail transport down the registration answers 503 and stores nothing, and works on retry", async () => {
    const env = await newEnvironment();
    const { publishableKey } = env;
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const options = (await client.post("/users/me/passkeys/registration-options")).body;
    const response = new SoftwareAuthenticator(originOf(env)).register(options);
    const before = await emailCount(email);
    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
    try {
      expectProblem(await client.post("/users/me/passkeys", { response }), 503, "email_unavailable");
    } finally {
      delete process.env.EMAIL_TRANSPORT;
      delete process.env.SMTP_URL;
    }
    expect(await getDb().select().from(passkeys).where(eq(passkeys.userId, session.user.id))).toEqual([]);
    expect(await emailCount(email)).toBe(before);
    // Nothing was spent either: the same response registers once mail works.
    expect((await client.post("/users/me/passkeys", { response })).status).toBe(201);
  });

  it("a session held by the MFA_ENROLLMENT gate may add a passkey, which clears the gate", async () => {
    const env = await newEnvironment();
    const { publishableKey, api } = env;
    const { client } = await signedUpClient(publishableKey, uniqueEmail(), STRONG_PASSWORD);
    await api.patch("/environment", { mfa: { required: true } });
    const blocked = await client.get("/users/me/passkeys");
    expectProblem(blocked, 403, "session_pending");
    expect(blocked.body.properties.currentGate).toEqual({ key: "MFA_ENROLLMENT" });
    await addPasskey(client, new SoftwareAuthenticator(originOf(env)));
    expect((await client.get("/client")).body.user.session.status).toBe("ACTIVE");
    expect((await client.get("/users/me/passkeys")).body.items).toHaveLength(1);
  });
});

describe("managing passkeys", () => {
  it("renames a passkey; the name is trimmed display text", async () => {
    const { client, passkey, environmentId } = await passkeyUser();
    const res = await client.patch(`/users/me/passkeys/${passkey.id}`, { name: "  YubiKey 5C  " });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: passkey.id, name: "YubiKey 5C" });
    expect((await client.get("/users/me/passkeys")).body.items[0].name).toBe("YubiKey 5C");
    const audited = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.environmentId, environmentId), eq(events.type, "passkey.renamed")));
    expect(audited).toHaveLength(1);
    for (const name of ["", "   ", "a\u0000b", "x".repeat(101)]) {
      expectProblem(await client.patch(`/users/me/passkeys/${passkey.id}`, { name }), 400, "invalid_request");
    }
  });

  it("removes a passkey with a recent sign-in, audited; a stale session gets 403 reverification_required", async () => {
    const { client, passkey, session, environmentId, publishableKey, email } = await passkeyUser();
    await ageSignIn(session.session.id);
    expectProblem(await client.delete(`/users/me/passkeys/${passkey.id}`), 403, "reverification_required");
    expect(await storedPasskey(passkey.id)).toBeDefined();

    const fresh = clientApi(publishableKey);
    expect((await fresh.post("/auth/login", { email, password: STRONG_PASSWORD })).status).toBe(200);
    const removed = await fresh.delete(`/users/me/passkeys/${passkey.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body).toEqual({ status: "removed" });
    expect(await storedPasskey(passkey.id)).toBeUndefined();
    const audited = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.environmentId, environmentId), eq(events.type, "passkey.removed")));
    expect(audited[0]?.data).toEqual({ passkeyId: passkey.id });
    expect((await latestEmail(email, "passkey_removed")).subject).toMatch(/passkey was removed/);
    expectProblem(await fresh.delete(`/users/me/passkeys/${passkey.id}`), 404, "resource_not_found");
  });

  it("another user's passkey, or another environment's, is 404 for rename and remove, and is left alone", async () => {
    const owner = await passkeyUser();
    const { client: neighbour } = await signedUpClient(owner.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const elsewhere = await newEnvironment();
    const { client: stranger } = await signedUpClient(elsewhere.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    for (const client of [neighbour, stranger]) {
      expectProblem(await client.patch(`/users/me/passkeys/${owner.passkey.id}`, { name: "mine now" }), 404, "resource_not_found");
      expectProblem(await client.delete(`/users/me/passkeys/${owner.passkey.id}`), 404, "resource_not_found");
      expect((await client.get("/users/me/passkeys")).body.items).toEqual([]);
    }
    expect(await storedPasskey(owner.passkey.id)).toMatchObject({ name: "Passkey" });
    expectProblem(await owner.client.delete(`/users/me/passkeys/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await owner.client.delete("/users/me/passkeys/not-a-uuid"), 400, "invalid_request");
  });

  it("with mfa.required the last factor stays: the only passkey cannot go unless an authenticator app remains", async () => {
    const { client, passkey, api, environmentId, userId, origin } = await passkeyUser();
    await api.patch("/environment", { mfa: { required: true } });
    const refused = await client.delete(`/users/me/passkeys/${passkey.id}`);
    expectProblem(refused, 400, "invalid_request");
    expect(refused.body.detail).toMatch(/last second factor/);
    expect(await storedPasskey(passkey.id)).toBeDefined();

    // With a second passkey, one of the two may go.
    const { passkey: second } = await addPasskey(client, new SoftwareAuthenticator(origin));
    expect((await client.delete(`/users/me/passkeys/${second.id}`)).status).toBe(200);
    // With an authenticator app, the last passkey may go too.
    await enableTotp(environmentId, userId);
    expect((await client.delete(`/users/me/passkeys/${passkey.id}`)).status).toBe(200);
  });

  it("without mfa.required the last passkey may go", async () => {
    const { client, passkey } = await passkeyUser();
    expect((await client.delete(`/users/me/passkeys/${passkey.id}`)).status).toBe(200);
    expect((await client.get("/users/me/passkeys")).body.items).toEqual([]);
  });
});
