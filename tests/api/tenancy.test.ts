import { beforeAll, describe, expect, it } from "vitest";
import { expectProblem, USER_OPERATIONS, type ServerApi } from "../helpers/api";
import { createUser, newEnvironment, openSession, uniqueEmail } from "../helpers/fixtures";

/**
 * Every environment is a tenant: a secret key acts only on its own environment's
 * users and sessions, and says so with 403 environment_mismatch (CONTRACT §4).
 */
describe("tenancy", () => {
  let home: Awaited<ReturnType<typeof newEnvironment>>;
  let foreign: Awaited<ReturnType<typeof newEnvironment>>;
  let victim: Awaited<ReturnType<typeof createUser>>;
  let victimSessionId: string;

  async function snapshot(api: ServerApi) {
    const user = (await api.get(`/users/${victim.id}`)).body;
    const sessions = (await api.get(`/users/${victim.id}/sessions`)).body.items;
    return { user, sessions };
  }

  beforeAll(async () => {
    home = await newEnvironment();
    foreign = await newEnvironment();
    victim = await createUser(home.api, { email: uniqueEmail("victim"), firstName: "Victim", publicMetadata: { safe: true } });
    victimSessionId = (await openSession(home.environmentId, victim.id)).session.id;
  });

  it.each(USER_OPERATIONS.map((op) => [op.name, op] as const))(
    "%s on another environment's user: 403 environment_mismatch and nothing changes",
    async (_name, op) => {
      const before = await snapshot(home.api);
      const res = await foreign.api.raw(op.method, op.path({ userId: victim.id, sessionId: victimSessionId }), { body: op.body });
      expectProblem(res, 403, "environment_mismatch");
      expect(await snapshot(home.api)).toEqual(before);
      expect(before.user.status).toBe("active");
      expect(before.sessions.map((s: { status: string }) => s.status)).toEqual(["active"]);
    },
  );

  it("revoking another environment's session through one's own user: 403 environment_mismatch", async () => {
    const mine = await createUser(foreign.api, {});
    const res = await foreign.api.delete(`/users/${mine.id}/sessions/${victimSessionId}`);
    expectProblem(res, 403, "environment_mismatch");
    expect((await home.api.get(`/users/${victim.id}/sessions`)).body.items[0].status).toBe("active");
  });

  it("search never returns another environment's users, whatever the filter", async () => {
    for (const filter of [{}, { email: victim.email }, { name: "Victim" }, { statuses: ["active"] }]) {
      const res = await foreign.api.post("/users/search", filter);
      expect(res.status).toBe(200);
      expect(res.body.items.map((u: { id: string }) => u.id)).not.toContain(victim.id);
    }
  });

  it("another environment's user id is not a valid cursor", async () => {
    await createUser(foreign.api, {});
    expectProblem(await foreign.api.post(`/users/search?cursor=${victim.id}`, {}), 400, "invalid_request");
  });

  it("emails are unique per environment, not across environments", async () => {
    const twin = await createUser(foreign.api, { email: victim.email });
    expect(twin.email).toBe(victim.email);
    expect(twin.environmentId).toBe(foreign.environmentId);
    expect(twin.id).not.toBe(victim.id);
    expectProblem(await home.api.post("/users", { email: victim.email }), 409, "identifier_exists");
  });

  it("deleting a user releases the email only in its own environment", async () => {
    const email = uniqueEmail("scoped");
    const a = await createUser(home.api, { email });
    await createUser(foreign.api, { email });
    await home.api.delete(`/users/${a.id}`);
    expect((await createUser(home.api, { email })).email).toBe(email);
    expectProblem(await foreign.api.post("/users", { email }), 409, "identifier_exists");
  });

  it("a production environment's live key works like a test key, within its own environment", async () => {
    const live = await newEnvironment({ kind: "production" });
    expect(live.secretKey).toMatch(/^sk_live_/);
    const user = await createUser(live.api, { email: uniqueEmail() });
    expect(user.environmentId).toBe(live.environmentId);
    expectProblem(await live.api.get(`/users/${victim.id}`), 403, "environment_mismatch");
    expectProblem(await home.api.get(`/users/${user.id}`), 403, "environment_mismatch");
  });

  it("settings and allowed origins are per environment", async () => {
    await foreign.api.patch("/environment", { branding: { accentColor: "#000000" } });
    await foreign.api.put("/allowed-origins", { origins: ["https://foreign.example.com"] });
    expect((await home.api.get("/environment")).body.branding.accentColor).toBeNull();
    expect((await home.api.get("/allowed-origins")).body.origins).toEqual([]);
  });
});
