import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, userIdentities } from "@/db/schema";
import { findEnvironment } from "@/lib/environments/context";
import { findIdentity } from "@/lib/identities/find-identity";
import { linkIdentity, recordIdentitySignIn } from "@/lib/identities/link-identity";
import { getUserOrThrow } from "@/lib/users/get-user";
import { expectProblem } from "../helpers/api";
import { ageSignIn, clientApi, emailCount, latestEmail, signedUpClient } from "../helpers/client";
import { deadPort } from "../helpers/dead-port";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { addProvider, linkTestIdentity, providerProfile } from "../helpers/identities";
import { addPasskey, originOf } from "../helpers/passkeys";
import { SoftwareAuthenticator } from "../helpers/webauthn-authenticator";

async function storedIdentities(userId: string) {
  return getDb().select().from(userIdentities).where(eq(userIdentities.userId, userId));
}

async function identityEvents(userId: string) {
  const rows = await getDb().select().from(events).where(eq(events.subjectId, userId));
  return rows.filter((row) => row.type.startsWith("identity."));
}

/** A user without a password, signed in (recently) through a native bearer session: an account made by a provider sign-in. */
async function passwordlessUser(env: Awaited<ReturnType<typeof newEnvironment>>, body: Record<string, unknown> = {}) {
  const email = uniqueEmail("oauth");
  const user = await createUser(env.api, { email, ...body });
  const { token, session } = await openSession(env.environmentId, user.id);
  const client = clientApi(env.publishableKey, { headers: { authorization: `Bearer ${token}` } });
  return { user, email, client, sessionId: session.id };
}

describe("linkIdentity", () => {
  it("stores the provider account with the profile's display data, audits it, and tells the primary address in its language", async () => {
    const env = await newEnvironment();
    await env.api.patch("/environment", { branding: { applicationName: "Nordlys" } });
    await addProvider(env.environmentId, "acme-sso", "Acme SSO");
    const { user, email } = await passwordlessUser(env, { locale: "da" });
    const profile = providerProfile({ email: "ada@corp.example", emailVerified: true, username: "ada", picture: "https://img.example/a.png" });

    const { id } = await linkTestIdentity(env.environmentId, user.id, "acme-sso", profile);

    const [row] = await storedIdentities(user.id);
    expect(row).toMatchObject({
      id,
      environmentId: env.environmentId,
      providerId: "acme-sso",
      subject: profile.subject,
      email: "ada@corp.example",
      emailVerified: true,
      lastSignInAt: null,
      profile: { name: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace", picture: "https://img.example/a.png", username: "ada" },
    });
    const [event] = await identityEvents(user.id);
    expect(event).toMatchObject({
      type: "identity.linked",
      actorType: "user",
      actorId: user.id,
      requestId: "req_identities_test",
      data: { identityId: id, providerId: "acme-sso" },
    });
    const notice = await latestEmail(email, "account_connected");
    expect(notice.locale).toBe("da");
    expect(notice.subject).toBe("Acme SSO er blevet forbundet med din konto hos Nordlys");
    expect(notice.text).toContain("/account");
  });

  it("linking the same account to the same user again changes nothing and answers the same id", async () => {
    const env = await newEnvironment();
    const { user, email } = await passwordlessUser(env);
    const profile = providerProfile();
    const first = await linkTestIdentity(env.environmentId, user.id, "github", profile);
    const before = await emailCount(email);
    const again = await linkTestIdentity(env.environmentId, user.id, "github", profile);
    expect(again.id).toBe(first.id);
    expect(await storedIdentities(user.id)).toHaveLength(1);
    expect(await identityEvents(user.id)).toHaveLength(1);
    expect(await emailCount(email)).toBe(before);
  });

  it("an account already connected to another user is refused with identity_already_linked and stays where it is", async () => {
    const env = await newEnvironment();
    const owner = await passwordlessUser(env);
    const intruder = await passwordlessUser(env);
    const profile = providerProfile();
    const { id } = await linkTestIdentity(env.environmentId, owner.user.id, "github", profile);
    const before = await emailCount(intruder.email);

    await expect(linkTestIdentity(env.environmentId, intruder.user.id, "github", profile)).rejects.toMatchObject({
      code: "identity_already_linked",
      status: 409,
    });
    expect((await findIdentity(getDb(), env.environmentId, "github", profile.subject))?.userId).toBe(owner.user.id);
    expect((await findIdentity(getDb(), env.environmentId, "github", profile.subject))?.id).toBe(id);
    expect(await storedIdentities(intruder.user.id)).toEqual([]);
    expect(await emailCount(intruder.email)).toBe(before);
  });

  it("two users linking the same provider account at once: exactly one wins, the other is refused", async () => {
    const env = await newEnvironment();
    const users = await Promise.all([passwordlessUser(env), passwordlessUser(env), passwordlessUser(env), passwordlessUser(env)]);
    const profile = providerProfile();
    const results = await Promise.allSettled(users.map(({ user }) => linkTestIdentity(env.environmentId, user.id, "github", profile)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((r) => r.status === "rejected")) expect(result.reason).toMatchObject({ code: "identity_already_linked" });
    const rows = await getDb().select().from(userIdentities).where(eq(userIdentities.environmentId, env.environmentId));
    expect(rows).toHaveLength(1);
  });

  it("refuses a user of another environment (403) and a deleted user (404): no row, no event", async () => {
    const home = await newEnvironment();
    const foreign = await newEnvironment();
    const stranger = await passwordlessUser(foreign);
    const environment = await findEnvironment(getDb(), home.environmentId);
    if (!environment) throw new Error("no environment");
    const actor = { type: "user" as const, id: stranger.user.id, requestId: "req_cross_tenant" };
    const strangerRow = await getUserOrThrow(getDb(), foreign.environmentId, stranger.user.id);
    await expect(
      getDb().transaction((tx) => linkIdentity(tx, environment, strangerRow, { providerId: "github", profile: providerProfile() }, actor)),
    ).rejects.toMatchObject({ code: "environment_mismatch" });
    expect(await storedIdentities(stranger.user.id)).toEqual([]);

    const { user } = await passwordlessUser(home);
    const row = await getUserOrThrow(getDb(), home.environmentId, user.id);
    await home.api.delete(`/users/${user.id}`);
    await expect(
      getDb().transaction((tx) => linkIdentity(tx, environment, row, { providerId: "github", profile: providerProfile() }, actor)),
    ).rejects.toMatchObject({ code: "resource_not_found" });
    expect(await storedIdentities(user.id)).toEqual([]);
    expect(await identityEvents(user.id)).toEqual([]);
  });

  it("no notice, no identity: with the mail transport down nothing is linked", async () => {
    const env = await newEnvironment();
    const { user } = await passwordlessUser(env);
    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
    try {
      await expect(linkTestIdentity(env.environmentId, user.id, "github")).rejects.toMatchObject({ code: "email_unavailable" });
    } finally {
      delete process.env.EMAIL_TRANSPORT;
      delete process.env.SMTP_URL;
    }
    expect(await storedIdentities(user.id)).toEqual([]);
    expect(await identityEvents(user.id)).toEqual([]);
  });

  it("the same provider id and subject in another environment is another account: each environment finds only its own", async () => {
    const home = await newEnvironment();
    const foreign = await newEnvironment();
    const profile = providerProfile();
    const homeUser = await passwordlessUser(home);
    const foreignUser = await passwordlessUser(foreign);
    const homeIdentity = await linkTestIdentity(home.environmentId, homeUser.user.id, "google", profile);
    const foreignIdentity = await linkTestIdentity(foreign.environmentId, foreignUser.user.id, "google", profile);
    expect((await findIdentity(getDb(), home.environmentId, "google", profile.subject))?.id).toBe(homeIdentity.id);
    expect((await findIdentity(getDb(), foreign.environmentId, "google", profile.subject))?.id).toBe(foreignIdentity.id);
    expect(await findIdentity(getDb(), home.environmentId, "github", profile.subject)).toBeNull();
    expect(await findIdentity(getDb(), home.environmentId, "google", "someone-else")).toBeNull();
  });
});

describe("recordIdentitySignIn", () => {
  it("replaces what the provider asserted before and stamps the sign-in; a profile of another subject changes nothing and signs in nobody", async () => {
    const env = await newEnvironment();
    const { user } = await passwordlessUser(env);
    const profile = providerProfile({ email: "old@corp.example", emailVerified: false, username: "ada" });
    const { id } = await linkTestIdentity(env.environmentId, user.id, "github", profile);

    const stranger = providerProfile({ subject: "not-this-one", email: "mallory@evil.example", emailVerified: true });
    await expect(recordIdentitySignIn(getDb(), id, stranger)).rejects.toMatchObject({ code: "oauth_failed" });
    expect((await storedIdentities(user.id))[0]).toMatchObject({ email: "old@corp.example", lastSignInAt: null });

    const before = Date.now();
    await recordIdentitySignIn(getDb(), id, { ...profile, email: "new@corp.example", emailVerified: true, username: "ada-l" });
    const [row] = await storedIdentities(user.id);
    expect(row).toMatchObject({ email: "new@corp.example", emailVerified: true, profile: { username: "ada-l" } });
    expect(row?.lastSignInAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  // Review finding 4: a sign-in that found the identity just before its removal
  // committed must not open a session through it after (the removal's revocation
  // has already run, so that session would outlive it).
  it("an identity removed since the sign-in found it: oauth_failed, so no session opens through it", async () => {
    const env = await newEnvironment();
    const { user } = await passwordlessUser(env);
    const profile = providerProfile();
    const { id } = await linkTestIdentity(env.environmentId, user.id, "github", profile);
    await getDb().delete(userIdentities).where(eq(userIdentities.id, id));
    await expect(recordIdentitySignIn(getDb(), id, profile)).rejects.toMatchObject({ code: "oauth_failed" });
  });
});

describe("GET /_svc/users/me/identities", () => {
  it("lists the user's own connected accounts, oldest first, named as the environment names the provider", async () => {
    const env = await newEnvironment();
    await addProvider(env.environmentId, "github", "GitHub", "github");
    const { user, client } = await passwordlessUser(env);
    const other = await passwordlessUser(env);
    const first = await linkTestIdentity(env.environmentId, user.id, "github", providerProfile({ email: "ada@gh.example", emailVerified: true, username: "ada" }));
    // A provider removed since the link is named by its id.
    const second = await linkTestIdentity(env.environmentId, user.id, "retired-sso", providerProfile());
    await linkTestIdentity(env.environmentId, other.user.id, "github", providerProfile());

    const res = await client.get("/users/me/identities");
    expect(res.status, res.text).toBe(200);
    expect(res.body.items).toEqual([
      {
        id: first.id,
        provider: "github",
        providerName: "GitHub",
        email: "ada@gh.example",
        emailVerified: true,
        username: "ada",
        createdAt: expect.any(String),
        lastSignInAt: null,
      },
      { id: second.id, provider: "retired-sso", providerName: "retired-sso", email: null, emailVerified: false, username: null, createdAt: expect.any(String), lastSignInAt: null },
    ]);
    expect(JSON.stringify(res.body)).not.toContain("subject");
  });

  it("signed out: 401", async () => {
    const env = await newEnvironment();
    expectProblem(await clientApi(env.publishableKey).get("/users/me/identities"), 401, "unauthorized");
  });
});

describe("DELETE /_svc/users/me/identities/{identityId}", () => {
  it("disconnects the account, audits it and tells the primary address; the provider account is free again", async () => {
    const env = await newEnvironment();
    await addProvider(env.environmentId, "github", "GitHub", "github");
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(env.publishableKey, email, STRONG_PASSWORD);
    const profile = providerProfile();
    const { id } = await linkTestIdentity(env.environmentId, session.user.id, "github", profile);

    const res = await client.delete(`/users/me/identities/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ status: "removed" });
    expect(await storedIdentities(session.user.id)).toEqual([]);
    const unlinked = (await identityEvents(session.user.id)).find((event) => event.type === "identity.unlinked");
    expect(unlinked).toMatchObject({ actorType: "user", actorId: session.user.id, data: { identityId: id, providerId: "github" } });
    const notice = await latestEmail(email, "account_disconnected");
    expect(notice.subject).toContain("GitHub was disconnected");
    // Another user of the environment may now connect it.
    const other = await passwordlessUser(env);
    await linkTestIdentity(env.environmentId, other.user.id, "github", profile);
    expect((await client.get("/users/me/identities")).body.items).toEqual([]);
  });

  it("needs a recent sign-in: 403 reverification_required, and the account stays", async () => {
    const env = await newEnvironment();
    const { client, session } = await signedUpClient(env.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const { id } = await linkTestIdentity(env.environmentId, session.user.id, "github");
    await ageSignIn(session.session.id);
    expectProblem(await client.delete(`/users/me/identities/${id}`), 403, "reverification_required");
    expect(await storedIdentities(session.user.id)).toHaveLength(1);
  });

  it("the last way to sign in (no password, no other account, no passkey) stays: 409 last_sign_in_method, no notice", async () => {
    const env = await newEnvironment();
    const { user, email, client } = await passwordlessUser(env);
    const { id } = await linkTestIdentity(env.environmentId, user.id, "github");
    const before = await emailCount(email);
    expectProblem(await client.delete(`/users/me/identities/${id}`), 409, "last_sign_in_method");
    expect(await storedIdentities(user.id)).toHaveLength(1);
    expect(await emailCount(email)).toBe(before);
  });

  it("a passwordless user with another connected account may disconnect one of them", async () => {
    const env = await newEnvironment();
    const { user, client } = await passwordlessUser(env);
    const github = await linkTestIdentity(env.environmentId, user.id, "github");
    const google = await linkTestIdentity(env.environmentId, user.id, "google");
    expect((await client.delete(`/users/me/identities/${github.id}`)).status).toBe(200);
    expectProblem(await client.delete(`/users/me/identities/${google.id}`), 409, "last_sign_in_method");
  });

  it("a passwordless user with a passkey may disconnect their only account", async () => {
    const env = await newEnvironment();
    const { user, client } = await passwordlessUser(env);
    await addPasskey(client, new SoftwareAuthenticator(originOf(env)));
    const { id } = await linkTestIdentity(env.environmentId, user.id, "github");
    expect((await client.delete(`/users/me/identities/${id}`)).status).toBe(200);
  });

  it("disconnecting both of two accounts at once: exactly one goes (the check holds the user's row lock)", async () => {
    const env = await newEnvironment();
    const { user, client } = await passwordlessUser(env);
    const github = await linkTestIdentity(env.environmentId, user.id, "github");
    const google = await linkTestIdentity(env.environmentId, user.id, "google");
    const results = await Promise.all([client.delete(`/users/me/identities/${github.id}`), client.delete(`/users/me/identities/${google.id}`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await storedIdentities(user.id)).toHaveLength(1);
  });

  it("another user's identity, another environment's and an unknown id answer 404 and change nothing; a malformed id 400", async () => {
    const home = await newEnvironment();
    const foreign = await newEnvironment();
    const { client, session } = await signedUpClient(home.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const neighbour = await passwordlessUser(home);
    const stranger = await passwordlessUser(foreign);
    const neighbours = await linkTestIdentity(home.environmentId, neighbour.user.id, "github");
    const strangers = await linkTestIdentity(foreign.environmentId, stranger.user.id, "github");
    await linkTestIdentity(home.environmentId, session.user.id, "google");

    expectProblem(await client.delete(`/users/me/identities/${neighbours.id}`), 404, "resource_not_found");
    expectProblem(await client.delete(`/users/me/identities/${strangers.id}`), 404, "resource_not_found");
    expectProblem(await client.delete(`/users/me/identities/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await client.delete("/users/me/identities/not-a-uuid"), 400, "invalid_request");
    expect(await storedIdentities(neighbour.user.id)).toHaveLength(1);
    expect(await storedIdentities(stranger.user.id)).toHaveLength(1);
    // A foreign environment's session cannot reach this environment's identities either.
    const foreignClient = clientApi(foreign.publishableKey, { headers: { authorization: `Bearer ${(await openSession(foreign.environmentId, stranger.user.id)).token}` } });
    expectProblem(await foreignClient.delete(`/users/me/identities/${neighbours.id}`), 404, "resource_not_found");
    expect(await storedIdentities(neighbour.user.id)).toHaveLength(1);
  });

  it("no notice, no change: with the mail transport down the account stays connected (503)", async () => {
    const env = await newEnvironment();
    const { client, session } = await signedUpClient(env.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const { id } = await linkTestIdentity(env.environmentId, session.user.id, "github");
    process.env.EMAIL_TRANSPORT = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${await deadPort()}`;
    try {
      expectProblem(await client.delete(`/users/me/identities/${id}`), 503, "email_unavailable");
    } finally {
      delete process.env.EMAIL_TRANSPORT;
      delete process.env.SMTP_URL;
    }
    expect(await storedIdentities(session.user.id)).toHaveLength(1);
  });

  it("a cookie-authenticated request from a foreign Origin is refused (403 origin_not_allowed) and the account stays", async () => {
    const env = await newEnvironment();
    const { client, session } = await signedUpClient(env.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    const { id } = await linkTestIdentity(env.environmentId, session.user.id, "github");
    expectProblem(await client.delete(`/users/me/identities/${id}`, undefined, { origin: "https://evil.example" }), 403, "origin_not_allowed");
    expect(await storedIdentities(session.user.id)).toHaveLength(1);
  });

  it("other methods: 405 with Allow", async () => {
    const env = await newEnvironment();
    const res = await clientApi(env.publishableKey).post(`/users/me/identities/${unknownId()}`);
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toContain("DELETE");
  });
});
