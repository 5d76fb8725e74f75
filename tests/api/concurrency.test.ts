import { describe, expect, it } from "vitest";
import { expectProblem } from "../helpers/api";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

/** Races settled by the database (unique index, row locks), never by timing. */
describe("concurrent writes", () => {
  it("10 concurrent creates with one email: exactly one 201, nine 409 identifier_exists", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail("race");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post("/users", { email, firstName: `Racer ${i}` })));
    const created = results.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    const refused = results.filter((res) => res.status !== 201);
    expect(refused).toHaveLength(9);
    for (const res of refused) expectProblem(res, 409, "identifier_exists");
    const found = await api.post("/users/search", { email });
    expect(found.body.items.map((u: { id: string }) => u.id)).toEqual([created[0]?.body.id]);
    // Only the winner's row exists: no orphan users without their email.
    expect((await api.post("/users/search", {})).body.items).toHaveLength(1);
  });

  it("10 concurrent creates with one email and a password: still exactly one winner", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail("race-pw");
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post("/users", { email, password: STRONG_PASSWORD })));
    expect(results.filter((res) => res.status === 201)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 201)) expectProblem(res, 409, "identifier_exists");
  });

  it("10 users concurrently taking one email by update: exactly one wins", async () => {
    const { api } = await newEnvironment();
    const contenders = [];
    for (let i = 0; i < 10; i++) contenders.push(await createUser(api, { email: uniqueEmail("contender") }));
    const email = uniqueEmail("prize");
    const results = await Promise.all(contenders.map((user) => api.patch(`/users/${user.id}`, { email })));
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) expectProblem(res, 409, "identifier_exists");
    const owners = (await api.post("/users/search", { email })).body.items;
    expect(owners).toHaveLength(1);
    // The losers kept their own addresses.
    for (const user of contenders.filter((c) => c.id !== owners[0].id)) {
      expect((await api.get(`/users/${user.id}`)).body.email).toBe(user.email);
    }
  });

  it("20 concurrent metadata PATCHes with distinct keys: all 20 keys are kept", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { privateMetadata: { existing: true } });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.patch(`/users/${user.id}/metadata`, { privateMetadata: { [`key${i}`]: i } })),
    );
    for (const res of results) expect(res.status, res.text).toBe(200);
    const stored = (await api.get(`/users/${user.id}`)).body.privateMetadata;
    const expected: Record<string, unknown> = { existing: true };
    for (let i = 0; i < 20; i++) expected[`key${i}`] = i;
    expect(stored).toEqual(expected);
  });

  it("concurrent PATCHes to different bags and nested keys all survive", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    const patches = [
      { publicMetadata: { a: 1 } },
      { privateMetadata: { b: 2 } },
      { unsafeMetadata: { c: 3 } },
      { publicMetadata: { nested: { x: 1 } } },
      { publicMetadata: { nested: { y: 2 } } },
      { privateMetadata: { nested: { z: 3 } } },
    ];
    const results = await Promise.all(patches.map((body) => api.patch(`/users/${user.id}/metadata`, body)));
    for (const res of results) expect(res.status).toBe(200);
    const stored = (await api.get(`/users/${user.id}`)).body;
    expect(stored.publicMetadata).toEqual({ a: 1, nested: { x: 1, y: 2 } });
    expect(stored.privateMetadata).toEqual({ b: 2, nested: { z: 3 } });
    expect(stored.unsafeMetadata).toEqual({ c: 3 });
  });

  it("concurrent PATCHes near the size limit never store more than the limit", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    // Each patch fits on its own; together they would not. Whatever commits first wins.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api.patch(`/users/${user.id}/metadata`, { publicMetadata: { [`k${i}`]: "x".repeat(150) } })),
    );
    const ok = results.filter((res) => res.status === 200).length;
    for (const res of results.filter((r) => r.status !== 200)) expectProblem(res, 400, "metadata_too_large");
    const stored = (await api.get(`/users/${user.id}`)).body.publicMetadata;
    expect(Object.keys(stored)).toHaveLength(ok);
    expect(ok).toBe(3);
    expect(Buffer.byteLength(JSON.stringify(stored))).toBeLessThanOrEqual(512);
  });

  it("concurrent settings PATCHes of different sections all survive", async () => {
    const { api } = await newEnvironment();
    const patches = [
      { passwordPolicy: { minLength: 10 } },
      { branding: { accentColor: "#112233" } },
      { mfa: { required: true } },
      { sessions: { tokenLifetimeSeconds: 300 } },
      { legal: { privacyUrl: "https://example.com/privacy" } },
      { signUp: { captcha: { enabled: true } } },
    ];
    const results = await Promise.all(patches.map((body) => api.patch("/environment", body)));
    for (const res of results) expect(res.status, res.text).toBe(200);
    const settings = (await api.get("/environment")).body;
    expect(settings).toMatchObject({
      passwordPolicy: { minLength: 10 },
      branding: { accentColor: "#112233" },
      mfa: { required: true },
      sessions: { tokenLifetimeSeconds: 300 },
      legal: { privacyUrl: "https://example.com/privacy" },
      signUp: { captcha: { enabled: true } },
    });
  });

  it("a ban racing new sessions leaves no session active that existed before the ban", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    const before = [];
    for (let i = 0; i < 5; i++) before.push((await openSession(environmentId, user.id)).session.id);
    const [ban] = await Promise.all([api.post(`/users/${user.id}/ban`), api.delete(`/users/${user.id}/sessions/${before[0]}`)]);
    expect(ban.status).toBe(200);
    const sessions = (await api.get(`/users/${user.id}/sessions`)).body.items as { id: string; status: string }[];
    for (const id of before) expect(sessions.find((s) => s.id === id)?.status).toBe("revoked");
  });

  it("concurrent deletes of one user all answer 200 with the same deletedAt", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { email: uniqueEmail() });
    const results = await Promise.all(Array.from({ length: 5 }, () => api.delete(`/users/${user.id}`)));
    for (const res of results) expect(res.status).toBe(200);
    expect(new Set(results.map((res) => res.body.deletedAt)).size).toBe(1);
    expect((await api.post("/users", { email: user.email })).status).toBe(201);
  });
});
