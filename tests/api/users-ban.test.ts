import { describe, expect, it } from "vitest";
import { expectProblem, type ServerApi } from "../helpers/api";
import { createUser, newEnvironment, openSession, unknownId } from "../helpers/fixtures";

interface SessionView {
  id: string;
  status: string;
  revokedAt: string | null;
}

async function sessionsOf(api: ServerApi, userId: string): Promise<SessionView[]> {
  const res = await api.get(`/users/${userId}/sessions?limit=100`);
  expect(res.status).toBe(200);
  return res.body.items;
}

describe("POST /api/server/v1/users/{userId}/ban", () => {
  it("marks the user banned and revokes every one of their sessions", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, { firstName: "Spammer" });
    for (let i = 0; i < 4; i++) await openSession(environmentId, user.id);
    expect((await sessionsOf(api, user.id)).map((s) => s.status)).toEqual(["active", "active", "active", "active"]);

    const res = await api.post(`/users/${user.id}/ban`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, status: "banned", firstName: "Spammer", deletedAt: null });
    expect((await api.get(`/users/${user.id}`)).body.status).toBe("banned");

    const sessions = await sessionsOf(api, user.id);
    expect(sessions).toHaveLength(4);
    for (const session of sessions) {
      expect(session.status).toBe("revoked");
      expect(session.revokedAt).not.toBeNull();
    }
  });

  it("leaves other users' sessions alone", async () => {
    const { api, environmentId } = await newEnvironment();
    const banned = await createUser(api, {});
    const bystander = await createUser(api, {});
    await openSession(environmentId, banned.id);
    await openSession(environmentId, bystander.id);
    await api.post(`/users/${banned.id}/ban`);
    expect((await sessionsOf(api, bystander.id)).map((s) => s.status)).toEqual(["active"]);
    expect((await api.get(`/users/${bystander.id}`)).body.status).toBe("active");
  });

  it("keeps the revocation time of a session revoked before the ban", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    const { session: early } = await openSession(environmentId, user.id);
    await openSession(environmentId, user.id);
    expect((await api.delete(`/users/${user.id}/sessions/${early.id}`)).status).toBe(204);
    const revokedAt = (await sessionsOf(api, user.id)).find((s) => s.id === early.id)?.revokedAt;
    expect(revokedAt).toBeTruthy();
    await api.post(`/users/${user.id}/ban`);
    const sessions = await sessionsOf(api, user.id);
    expect(sessions.every((s) => s.status === "revoked")).toBe(true);
    expect(sessions.find((s) => s.id === early.id)?.revokedAt).toBe(revokedAt);
  });

  it("banning a user without sessions works, and banning twice is harmless", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    expect((await api.post(`/users/${user.id}/ban`)).body.status).toBe("banned");
    const again = await api.post(`/users/${user.id}/ban`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe("banned");
  });

  it("ignores a body: there is none to send", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    const res = await api.post(`/users/${user.id}/ban`, { status: "active", reason: "ignored" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("banned");
  });

  it("answers 404 for an unknown or deleted user, 400 for a malformed id", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.post(`/users/${unknownId()}/ban`), 404, "resource_not_found");
    const user = await createUser(api, {});
    await api.delete(`/users/${user.id}`);
    expectProblem(await api.post(`/users/${user.id}/ban`), 404, "resource_not_found");
    expect((await api.get(`/users/${user.id}`)).body.status).toBe("deleted");
    expectProblem(await api.post("/users/nope/ban"), 400, "invalid_request");
  });
});

describe("POST /api/server/v1/users/{userId}/unban", () => {
  it("makes a banned user active again; revoked sessions stay revoked", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    await openSession(environmentId, user.id);
    await api.post(`/users/${user.id}/ban`);
    const res = await api.post(`/users/${user.id}/unban`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, status: "active" });
    expect((await api.get(`/users/${user.id}`)).body.status).toBe("active");
    expect((await sessionsOf(api, user.id)).map((s) => s.status)).toEqual(["revoked"]);
    // New sessions after the unban are active.
    await openSession(environmentId, user.id);
    expect((await sessionsOf(api, user.id)).map((s) => s.status)).toEqual(["active", "revoked"]);
  });

  it("unbanning an active user changes nothing and revokes nothing", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    await openSession(environmentId, user.id);
    const res = await api.post(`/users/${user.id}/unban`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("active");
    expect((await sessionsOf(api, user.id)).map((s) => s.status)).toEqual(["active"]);
  });

  it("ban, unban, ban again: each step lands in the right state", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    const states: string[] = [];
    for (const action of ["ban", "unban", "ban", "unban"]) {
      states.push((await api.post(`/users/${user.id}/${action}`)).body.status);
    }
    expect(states).toEqual(["banned", "active", "banned", "active"]);
  });

  it("answers 404 for an unknown or deleted user, 400 for a malformed id", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.post(`/users/${unknownId()}/unban`), 404, "resource_not_found");
    const user = await createUser(api, {});
    await api.post(`/users/${user.id}/ban`);
    await api.delete(`/users/${user.id}`);
    expectProblem(await api.post(`/users/${user.id}/unban`), 404, "resource_not_found");
    expect((await api.get(`/users/${user.id}`)).body.status).toBe("deleted");
    expectProblem(await api.post("/users/1234/unban"), 400, "invalid_request");
  });
});
