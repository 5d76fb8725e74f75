import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailAddresses, events } from "@/db/schema";
import { expectProblem, problemFields, USER_OPERATIONS } from "../helpers/api";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail, unknownId } from "../helpers/fixtures";

describe("GET /api/server/v1/users/{userId}", () => {
  it("returns the user in the server view", async () => {
    const { api, environmentId } = await newEnvironment();
    const created = await createUser(api, { email: uniqueEmail(), firstName: "Ada", privateMetadata: { tier: 2 } });
    const res = await api.get(`/users/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.body).toEqual(created);
    expect(res.body.environmentId).toBe(environmentId);
  });

  it("accepts the id in upper case", async () => {
    const { api } = await newEnvironment();
    const created = await createUser(api, {});
    const res = await api.get(`/users/${created.id.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.id);
  });

  it("answers 404 resource_not_found for an unknown id, including the nil UUID", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.get(`/users/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await api.get("/users/00000000-0000-0000-0000-000000000000"), 404, "resource_not_found");
  });

  it("answers 400 invalid_request for an id that is not a UUID", async () => {
    const { api } = await newEnvironment();
    for (const id of ["123", "not-a-uuid", "0e7b1c4a-1b2c-4d3e-8f40-123456789abcd", "0e7b1c4a1b2c4d3e8f40123456789abc", "%27%20OR%201%3D1"]) {
      const res = await api.get(`/users/${id}`);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res)).toEqual(["userId"]);
    }
  });
});

describe("PATCH /api/server/v1/users/{userId}", () => {
  it("updates first and last name, and the derived name follows", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { firstName: "Ada", lastName: "Byron" });
    const res = await api.patch(`/users/${user.id}`, { lastName: "Lovelace" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: "Ada", lastName: "Lovelace", name: "Ada Lovelace" });
    expect(res.body.updatedAt >= user.updatedAt).toBe(true);
    expect(res.body.createdAt).toBe(user.createdAt);
    expect((await api.get(`/users/${user.id}`)).body).toEqual(res.body);
  });

  it("null or a blank string clears a name; omitted fields stay as they were", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { firstName: "Ada", lastName: "Lovelace", locale: "da", email: uniqueEmail() });
    const cleared = await api.patch(`/users/${user.id}`, { firstName: null, lastName: "  " });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ firstName: null, lastName: null, name: null, locale: "da", email: user.email });
  });

  it("sets and clears the locale", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    expect((await api.patch(`/users/${user.id}`, { locale: "da" })).body.locale).toBe("da");
    expect((await api.patch(`/users/${user.id}`, { locale: "en" })).body.locale).toBe("en");
    expect((await api.patch(`/users/${user.id}`, { locale: null })).body.locale).toBeNull();
    expectProblem(await api.patch(`/users/${user.id}`, { locale: "de" }), 400, "invalid_request");
  });

  it("an empty body changes nothing but is accepted", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { firstName: "Same" });
    const res = await api.patch(`/users/${user.id}`, {});
    expect(res.status).toBe(200);
    expect({ ...res.body, updatedAt: user.updatedAt }).toEqual(user);
  });

  it("replaces the primary email: the new one is normalised and verified, the old one released", async () => {
    const { api } = await newEnvironment();
    const oldEmail = uniqueEmail("old");
    const newEmail = uniqueEmail("new");
    const user = await createUser(api, { email: oldEmail });
    const res = await api.patch(`/users/${user.id}`, { email: ` ${newEmail.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(newEmail);
    expect(res.body.emailVerifiedAt).not.toBeNull();
    // The old address is free for someone else; the new one is taken.
    expect((await createUser(api, { email: oldEmail })).email).toBe(oldEmail);
    expectProblem(await api.post("/users", { email: newEmail }), 409, "identifier_exists");
  });

  it("gives an email to a user who had none", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    const email = uniqueEmail();
    const res = await api.patch(`/users/${user.id}`, { email });
    expect(res.body).toMatchObject({ email });
    expect(res.body.emailVerifiedAt).not.toBeNull();
    expectProblem(await api.post("/users", { email }), 409, "identifier_exists");
  });

  it("setting the user's own email again is not a conflict", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(api, { email });
    const res = await api.patch(`/users/${user.id}`, { email: email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(email);
    expect(res.body.emailVerifiedAt).toBe(user.emailVerifiedAt);
  });

  it("setting the email to one of the user's own secondary addresses promotes it instead of answering 409", async () => {
    const { api, environmentId } = await newEnvironment();
    const primary = uniqueEmail("primary");
    const secondary = uniqueEmail("secondary");
    const user = await createUser(api, { email: primary, password: STRONG_PASSWORD });
    // The user added the address and has not verified it yet: an operator's word is enough.
    await getDb().insert(emailAddresses).values({ environmentId, userId: user.id, email: secondary });
    const res = await api.patch(`/users/${user.id}`, { email: secondary });
    expect(res.status, res.text).toBe(200);
    expect(res.body.email).toBe(secondary);
    expect(res.body.emailVerifiedAt).not.toBeNull();
    const addresses = await getDb().select({ email: emailAddresses.email, verifiedAt: emailAddresses.verifiedAt }).from(emailAddresses).where(eq(emailAddresses.userId, user.id));
    expect(addresses).toEqual([{ email: secondary, verifiedAt: expect.any(Date) }]);
    // As with any new email, the old primary is released.
    expect((await createUser(api, { email: primary })).email).toBe(primary);
  });

  it("answers 409 identifier_exists for an email another user has, and changes nothing", async () => {
    const { api } = await newEnvironment();
    const taken = uniqueEmail("taken");
    await createUser(api, { email: taken });
    const user = await createUser(api, { email: uniqueEmail(), firstName: "Before" });
    const res = await api.patch(`/users/${user.id}`, { email: taken, firstName: "After" });
    expectProblem(res, 409, "identifier_exists");
    expect((await api.get(`/users/${user.id}`)).body).toEqual(user);
  });

  it("sets a password subject to the policy", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    expect(user.hasPassword).toBe(false);
    const res = await api.patch(`/users/${user.id}`, { password: STRONG_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.hasPassword).toBe(true);
    expect(res.text).not.toContain(STRONG_PASSWORD);
  });

  it("setting a password revokes every session of the user, with the count in the audit row", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, { password: STRONG_PASSWORD });
    for (let i = 0; i < 2; i++) await openSession(environmentId, user.id);
    const res = await api.patch(`/users/${user.id}`, { password: "an operator's new passphrase" });
    expect(res.status).toBe(200);
    const sessions = (await api.get(`/users/${user.id}/sessions`)).body.items;
    expect(sessions.map((s: { status: string }) => s.status)).toEqual(["revoked", "revoked"]);
    const audit = await getDb().select({ data: events.data }).from(events).where(and(eq(events.subjectId, user.id), eq(events.type, "user.updated")));
    expect(audit).toEqual([{ data: { fields: ["password"], revokedSessions: 2 } }]);
    // Changing only a name leaves sessions alone.
    await openSession(environmentId, user.id);
    await api.patch(`/users/${user.id}`, { firstName: "Ada" });
    expect((await api.get(`/users/${user.id}/sessions`)).body.items.filter((s: { status: string }) => s.status === "active")).toHaveLength(1);
  });

  it("answers 400 password_too_weak for a weak password, and changes nothing", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { firstName: "Unchanged" });
    for (const password of ["short", "password123", "qwertyuiop"]) {
      const res = await api.patch(`/users/${user.id}`, { password, firstName: "Changed" });
      expectProblem(res, 400, "password_too_weak");
      expect(problemFields(res)).toEqual(["password"]);
    }
    expect((await api.get(`/users/${user.id}`)).body).toEqual(user);
  });

  it("answers 400 invalid_request for wrong types, unknown keys and a malformed email", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { firstName: "Kept" });
    for (const body of [
      { firstName: 1 },
      { lastName: false },
      { email: null },
      { email: "not-an-email" },
      { password: null },
      { password: "" },
      { status: "banned" },
      { publicMetadata: { a: 1 } },
      { environmentId: unknownId() },
      { firstName: "x".repeat(101) },
      { firstName: "tab\there" },
    ]) {
      expectProblem(await api.patch(`/users/${user.id}`, body), 400, "invalid_request");
    }
    expect((await api.get(`/users/${user.id}`)).body).toEqual(user);
  });

  it("answers 404 for an unknown user and for a deleted one", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.patch(`/users/${unknownId()}`, { firstName: "X" }), 404, "resource_not_found");
    const user = await createUser(api, {});
    expect((await api.delete(`/users/${user.id}`)).status).toBe(200);
    expectProblem(await api.patch(`/users/${user.id}`, { firstName: "X" }), 404, "resource_not_found");
  });

  it("does not change the status of a banned user", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    await api.post(`/users/${user.id}/ban`);
    const res = await api.patch(`/users/${user.id}`, { firstName: "Still banned" });
    expect(res.body).toMatchObject({ status: "banned", firstName: "Still banned" });
  });
});

describe("DELETE /api/server/v1/users/{userId}", () => {
  it("soft-deletes: status deleted, deletedAt set, password removed, record still readable", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(api, { email, password: STRONG_PASSWORD, firstName: "Gone" });
    const res = await api.delete(`/users/${user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, status: "deleted", email, firstName: "Gone", hasPassword: false });
    expect(res.body.deletedAt).not.toBeNull();
    expect(res.body.updatedAt).toBe(res.body.deletedAt);
    const after = await api.get(`/users/${user.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(res.body);
  });

  it("revokes every session of the user", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    for (let i = 0; i < 3; i++) await openSession(environmentId, user.id);
    expect((await api.get(`/users/${user.id}/sessions`)).body.items.map((s: { status: string }) => s.status)).toEqual(["active", "active", "active"]);
    await api.delete(`/users/${user.id}`);
    const sessions = (await api.get(`/users/${user.id}/sessions`)).body.items;
    expect(sessions).toHaveLength(3);
    for (const session of sessions) {
      expect(session.status).toBe("revoked");
      expect(session.revokedAt).not.toBeNull();
    }
  });

  it("releases the email: a new user can be created with it", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    const user = await createUser(api, { email });
    expectProblem(await api.post("/users", { email }), 409, "identifier_exists");
    await api.delete(`/users/${user.id}`);
    const again = await createUser(api, { email });
    expect(again.id).not.toBe(user.id);
    expect(again).toMatchObject({ email, status: "active" });
    // An existing user can also move onto an address released by a deletion.
    const third = await createUser(api, { email: uniqueEmail() });
    await api.delete(`/users/${again.id}`);
    expect((await api.patch(`/users/${third.id}`, { email })).body.email).toBe(email);
  });

  it("is idempotent: deleting again answers 200 with the same deletedAt", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    const first = await api.delete(`/users/${user.id}`);
    const second = await api.delete(`/users/${user.id}`);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });

  it("deletes a banned user", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    await api.post(`/users/${user.id}/ban`);
    const res = await api.delete(`/users/${user.id}`);
    expect(res.body.status).toBe("deleted");
  });

  it("a deleted user cannot be changed: update, metadata, ban and unban answer 404", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { publicMetadata: { kept: true } });
    const deleted = (await api.delete(`/users/${user.id}`)).body;
    expectProblem(await api.patch(`/users/${user.id}`, { firstName: "Zombie" }), 404, "resource_not_found");
    expectProblem(await api.patch(`/users/${user.id}/metadata`, { publicMetadata: { a: 1 } }), 404, "resource_not_found");
    expectProblem(await api.post(`/users/${user.id}/ban`), 404, "resource_not_found");
    expectProblem(await api.post(`/users/${user.id}/unban`), 404, "resource_not_found");
    expect((await api.get(`/users/${user.id}`)).body).toEqual(deleted);
  });

  it("answers 404 for an unknown user and 400 for a malformed id", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.delete(`/users/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await api.delete("/users/abc"), 400, "invalid_request");
  });
});

describe("every user operation", () => {
  it.each(USER_OPERATIONS.map((op) => [op.name, op] as const))("%s: 400 invalid_request for a malformed user id", async (_name, op) => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    const { session } = await openSession(environmentId, user.id);
    const res = await api.raw(op.method, op.path({ userId: "not-a-uuid", sessionId: session.id }), { body: op.body });
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res)).toContain("userId");
  });

  it.each(USER_OPERATIONS.map((op) => [op.name, op] as const))("%s: 404 resource_not_found for an unknown user", async (_name, op) => {
    const { api } = await newEnvironment();
    const res = await api.raw(op.method, op.path({ userId: unknownId(), sessionId: unknownId() }), { body: op.body });
    expectProblem(res, 404, "resource_not_found");
  });
});
