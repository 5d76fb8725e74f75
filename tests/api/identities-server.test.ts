import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, userIdentities } from "@/db/schema";
import { call, expectProblem } from "../helpers/api";
import { clientApi, emailCount, latestEmail, signedUpClient } from "../helpers/client";
import { createUser, newEnvironment, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";
import { addProvider, linkTestIdentity, providerProfile } from "../helpers/identities";

async function storedIdentities(userId: string) {
  return getDb().select().from(userIdentities).where(eq(userIdentities.userId, userId));
}

describe("the Server API's user view lists connected accounts", () => {
  it("GET, search and the views after a change carry identities (provider, asserted email, times), never the subject", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(env.api, { email, password: STRONG_PASSWORD });
    expect(user.identities).toEqual([]);
    const github = await linkTestIdentity(env.environmentId, user.id, "github", providerProfile({ email: "ada@gh.example", emailVerified: true }));
    const google = await linkTestIdentity(env.environmentId, user.id, "google", providerProfile());
    await getDb().update(userIdentities).set({ lastSignInAt: new Date("2026-11-20T08:00:00.123Z") }).where(eq(userIdentities.id, github.id));

    const expected = [
      { id: github.id, provider: "github", email: "ada@gh.example", emailVerified: true, createdAt: expect.any(String), lastSignInAt: "2026-11-20T08:00:00.123Z" },
      { id: google.id, provider: "google", email: null, emailVerified: false, createdAt: expect.any(String), lastSignInAt: null },
    ];
    const got = await env.api.get(`/users/${user.id}`);
    expect(got.status, got.text).toBe(200);
    expect(got.body.identities).toEqual(expected);
    expect(new Date(got.body.identities[0].createdAt).toISOString()).toBe(got.body.identities[0].createdAt);
    expect(got.text).not.toContain("subject");

    const page = await env.api.post("/users/search", { email });
    expect(page.body.items[0].identities).toEqual(expected);
    // A name search takes the substring route (a subquery named differently): same summary.
    const byName = await env.api.post("/users/search", { email: email.slice(0, 12) });
    expect(byName.body.items.find((item: { id: string }) => item.id === user.id)?.identities).toEqual(expected);

    expect((await env.api.patch(`/users/${user.id}`, { firstName: "Ada" })).body.identities).toEqual(expected);
    expect((await env.api.patch(`/users/${user.id}/metadata`, { publicMetadata: { a: 1 } })).body.identities).toEqual(expected);
    expect((await env.api.post(`/users/${user.id}/ban`)).body.identities).toEqual(expected);
    expect((await env.api.post(`/users/${user.id}/unban`)).body.identities).toEqual(expected);
    // Resetting second factors leaves the connected accounts.
    expect((await env.api.delete(`/users/${user.id}/mfa`)).body.identities).toEqual(expected);
  });

  it("a page of users reads their identities in the statement that finds them: each user gets only their own", async () => {
    const env = await newEnvironment();
    const users = [];
    for (let i = 0; i < 3; i += 1) users.push(await createUser(env.api, { email: uniqueEmail("page") }));
    const [first, second] = users;
    if (!first || !second) throw new Error("no users");
    await linkTestIdentity(env.environmentId, first.id, "github");
    await linkTestIdentity(env.environmentId, second.id, "github");
    await linkTestIdentity(env.environmentId, second.id, "google");
    const page = await env.api.post("/users/search", {});
    const counts = Object.fromEntries(page.body.items.map((item: { id: string; identities: unknown[] }) => [item.id, item.identities.length]));
    expect(counts).toEqual({ [first.id]: 1, [second.id]: 2, [users[2]?.id ?? ""]: 0 });
  });

  it("the Client API's own view of the user shows no identities (they have their own endpoint)", async () => {
    const env = await newEnvironment();
    const { client, session } = await signedUpClient(env.publishableKey, uniqueEmail(), STRONG_PASSWORD);
    await linkTestIdentity(env.environmentId, session.user.id, "github");
    const me = await client.get("/users/me");
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).not.toContain("identities");
  });
});

describe("DELETE /api/server/v1/users/{userId}/identities/{identityId}", () => {
  it("disconnects the account, audited as the secret key, tells the user and answers the user without it", async () => {
    const env = await newEnvironment();
    await addProvider(env.environmentId, "github", "GitHub", "github");
    const email = uniqueEmail();
    const user = await createUser(env.api, { email });
    const github = await linkTestIdentity(env.environmentId, user.id, "github");
    const google = await linkTestIdentity(env.environmentId, user.id, "google");

    // Unlike the user, the operator may remove the last way to sign in.
    const res = await env.api.delete(`/users/${user.id}/identities/${github.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.id).toBe(user.id);
    expect(res.body.identities.map((identity: { id: string }) => identity.id)).toEqual([google.id]);
    const last = await env.api.delete(`/users/${user.id}/identities/${google.id}`);
    expect(last.status).toBe(200);
    expect(last.body.identities).toEqual([]);
    expect(await storedIdentities(user.id)).toEqual([]);

    const unlinked = (await getDb().select().from(events).where(eq(events.subjectId, user.id))).filter((e) => e.type === "identity.unlinked");
    expect(unlinked).toHaveLength(2);
    expect(unlinked[0]).toMatchObject({ actorType: "secret_key", data: { identityId: github.id, providerId: "github" } });
    expect(unlinked[0]?.requestId).toEqual(expect.any(String));
    expect((await latestEmail(email, "account_disconnected")).subject).toContain("google");
  });

  it("another user's identity and an unknown one: 404; a user of another environment: 403; malformed ids: 400; nothing changes", async () => {
    const home = await newEnvironment();
    const foreign = await newEnvironment();
    const user = await createUser(home.api, { email: uniqueEmail() });
    const neighbour = await createUser(home.api, { email: uniqueEmail() });
    const stranger = await createUser(foreign.api, { email: uniqueEmail() });
    const neighbours = await linkTestIdentity(home.environmentId, neighbour.id, "github");
    const strangers = await linkTestIdentity(foreign.environmentId, stranger.id, "github");
    const before = await emailCount(neighbour.email ?? "");

    expectProblem(await home.api.delete(`/users/${user.id}/identities/${neighbours.id}`), 404, "resource_not_found");
    expectProblem(await home.api.delete(`/users/${user.id}/identities/${strangers.id}`), 404, "resource_not_found");
    expectProblem(await home.api.delete(`/users/${user.id}/identities/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await home.api.delete(`/users/${stranger.id}/identities/${strangers.id}`), 403, "environment_mismatch");
    expectProblem(await home.api.delete(`/users/${unknownId()}/identities/${neighbours.id}`), 404, "resource_not_found");
    expectProblem(await home.api.delete(`/users/${user.id}/identities/nope`), 400, "invalid_request");
    expectProblem(await home.api.delete(`/users/nope/identities/${neighbours.id}`), 400, "invalid_request");
    expect(await storedIdentities(neighbour.id)).toHaveLength(1);
    expect(await storedIdentities(stranger.id)).toHaveLength(1);
    expect(await emailCount(neighbour.email ?? "")).toBe(before);
  });

  it("without a valid secret key: 401; other methods: 405", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, {});
    const { id } = await linkTestIdentity(env.environmentId, user.id, "github");
    expectProblem(await call("DELETE", `/api/server/v1/users/${user.id}/identities/${id}`), 401, "unauthorized");
    expectProblem(await env.api.get(`/users/${user.id}/identities/${id}`), 405, "method_not_allowed");
    expect(await storedIdentities(user.id)).toHaveLength(1);
  });
});

describe("a deleted user's identities are free again", () => {
  it("through the Server API: the rows go, the view says none, and the provider account can be linked to someone else", async () => {
    const env = await newEnvironment();
    const user = await createUser(env.api, { email: uniqueEmail() });
    const profile = providerProfile();
    await linkTestIdentity(env.environmentId, user.id, "github", profile);
    const deleted = await env.api.delete(`/users/${user.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.identities).toEqual([]);
    expect(await storedIdentities(user.id)).toEqual([]);
    expect((await env.api.get(`/users/${user.id}`)).body.identities).toEqual([]);

    const successor = await createUser(env.api, { email: uniqueEmail() });
    await linkTestIdentity(env.environmentId, successor.id, "github", profile);
    expect(await storedIdentities(successor.id)).toHaveLength(1);
  });

  it("through the user's own account deletion", async () => {
    const env = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(env.publishableKey, email, STRONG_PASSWORD);
    await linkTestIdentity(env.environmentId, session.user.id, "github");
    const requested = await client.post("/users/me/delete/request", { confirmation: email });
    expect(requested.status, requested.text).toBe(200);
    const link = /https?:\/\/\S+\/account\/delete\?\S+/.exec((await latestEmail(email, "account_deletion_link")).text)?.[0];
    const token = new URL(link ?? "").searchParams.get("token");
    const confirmed = await clientApi(env.publishableKey).post("/users/me/delete/confirm", { token });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await storedIdentities(session.user.id)).toEqual([]);
  });
});

describe("OpenAPI", () => {
  it("documents the identities operations and the user view's identities", async () => {
    const doc = (await call("GET", "/api/openapi.json")).body;
    expect(doc.paths["/_svc/users/me/identities"].get.operationId).toBe("listIdentities");
    expect(doc.paths["/_svc/users/me/identities/{identityId}"].delete.operationId).toBe("unlinkIdentity");
    expect(doc.paths["/api/server/v1/users/{userId}/identities/{identityId}"].delete.operationId).toBe("removeUserIdentity");
    expect(Object.keys(doc.paths["/_svc/users/me/identities/{identityId}"].delete.responses)).toEqual(expect.arrayContaining(["409", "403", "404"]));
    expect(doc.components.schemas.User.properties.identities).toBeDefined();
  });
});

