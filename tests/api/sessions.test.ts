import { describe, expect, it } from "vitest";
import { expectProblem, problemFields, type ServerApi } from "../helpers/api";
import { createUser, expireSession, newEnvironment, openSession, unknownId } from "../helpers/fixtures";

interface SessionView {
  id: string;
  userId: string;
  status: "active" | "revoked" | "expired";
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  revokedAt: string | null;
  userAgent: string | null;
  ipAddress: string | null;
}

async function listSessions(api: ServerApi, userId: string, query = "") {
  const res = await api.get(`/users/${userId}/sessions${query}`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
  return res.body as { items: SessionView[]; nextCursor: string | null; hasMore: boolean };
}

async function userWithSessions(count: number) {
  const env = await newEnvironment();
  const user = await createUser(env.api, {});
  const opened: string[] = [];
  for (let i = 0; i < count; i++) opened.push((await openSession(env.environmentId, user.id)).session.id);
  return { ...env, user, opened };
}

describe("GET /api/server/v1/users/{userId}/sessions", () => {
  it("lists the user's sessions, newest first, with their details", async () => {
    const { api, user, opened } = await userWithSessions(3);
    const page = await listSessions(api, user.id);
    expect(page.items.map((s) => s.id)).toEqual([...opened].reverse());
    expect(page.hasMore).toBe(false);
    for (const session of page.items) {
      expect(session).toMatchObject({ userId: user.id, status: "active", revokedAt: null, userAgent: "vitest", ipAddress: "127.0.0.1" });
      expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.parse(session.createdAt));
    }
    // The session token and its hash never appear.
    expect(JSON.stringify(page)).not.toMatch(/token/i);
  });

  it("an environment's session lifetime sets expiresAt", async () => {
    const { api, user, opened } = await userWithSessions(1);
    const [session] = (await listSessions(api, user.id)).items;
    expect(session?.id).toBe(opened[0]);
    const lifetime = Date.parse(session!.expiresAt) - Date.parse(session!.createdAt);
    // Default lifetime is 7 days; allow for the instants the two clocks were read at.
    expect(Math.round(lifetime / 1000 / 3600)).toBe(7 * 24);
  });

  it("returns an empty page for a user without sessions", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    expect(await listSessions(api, user.id)).toEqual({ items: [], nextCursor: null, hasMore: false });
  });

  it("reports active, revoked and expired sessions", async () => {
    const { api, user, opened } = await userWithSessions(3);
    const [first, second] = opened as [string, string, string];
    await api.delete(`/users/${user.id}/sessions/${first}`);
    await expireSession(second);
    const byId = Object.fromEntries((await listSessions(api, user.id)).items.map((s) => [s.id, s.status]));
    expect(byId).toEqual({ [opened[0]!]: "revoked", [opened[1]!]: "expired", [opened[2]!]: "active" });
  });

  it("lists the sessions of deleted users too", async () => {
    const { api, user } = await userWithSessions(2);
    await api.delete(`/users/${user.id}`);
    const page = await listSessions(api, user.id);
    expect(page.items.map((s) => s.status)).toEqual(["revoked", "revoked"]);
  });

  it("paginates with limit and cursor, every session exactly once", async () => {
    const { api, user, opened } = await userWithSessions(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    const sizes: number[] = [];
    do {
      const page = await listSessions(api, user.id, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      sizes.push(page.items.length);
      seen.push(...page.items.map((s) => s.id));
      if (page.hasMore) expect(page.nextCursor).toBe(page.items.at(-1)?.id);
      cursor = page.nextCursor;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    expect(seen).toEqual([...opened].reverse());
  });

  it("refuses a malformed limit or cursor", async () => {
    const { api, user } = await userWithSessions(1);
    for (const query of ["?limit=0", "?limit=101", "?limit=abc", "?limit=2.5", "?cursor=nope"]) {
      const res = await api.get(`/users/${user.id}/sessions${query}`);
      expectProblem(res, 400, "invalid_request");
    }
  });

  it("refuses a cursor that is not one of this user's sessions (regression: it answered an empty last page)", async () => {
    // Like the user search, an unknown cursor is a client error, not the end of the list:
    // silently ending would make a caller believe it had seen every session.
    const { api, user, environmentId } = await userWithSessions(2);
    const other = await createUser(api, {});
    const { session: othersSession } = await openSession(environmentId, other.id);
    for (const cursor of [unknownId(), othersSession.id]) {
      const res = await api.get(`/users/${user.id}/sessions?cursor=${cursor}`);
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res)).toContain("cursor");
    }
  });

  it("the oldest session as a cursor gives an empty last page", async () => {
    const { api, user, opened } = await userWithSessions(2);
    const page = await listSessions(api, user.id, `?cursor=${opened[0]}`);
    expect(page).toEqual({ items: [], nextCursor: null, hasMore: false });
  });
});

describe("DELETE /api/server/v1/users/{userId}/sessions/{sessionId}", () => {
  it("revokes one session with 204 and no body; the others stay active", async () => {
    const { api, user, opened } = await userWithSessions(3);
    const target = opened[1]!;
    const res = await api.delete(`/users/${user.id}/sessions/${target}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    const byId = Object.fromEntries((await listSessions(api, user.id)).items.map((s) => [s.id, s]));
    expect(byId[target]?.status).toBe("revoked");
    expect(byId[target]?.revokedAt).not.toBeNull();
    expect(byId[opened[0]!]?.status).toBe("active");
    expect(byId[opened[2]!]?.status).toBe("active");
  });

  it("is idempotent: revoking an already revoked session answers 204 and keeps the first revocation time", async () => {
    const { api, user, opened } = await userWithSessions(1);
    const id = opened[0]!;
    expect((await api.delete(`/users/${user.id}/sessions/${id}`)).status).toBe(204);
    const revokedAt = (await listSessions(api, user.id)).items[0]?.revokedAt;
    for (let i = 0; i < 2; i++) {
      const again = await api.delete(`/users/${user.id}/sessions/${id}`);
      expect(again.status).toBe(204);
      expect(again.text).toBe("");
    }
    expect((await listSessions(api, user.id)).items[0]?.revokedAt).toBe(revokedAt);
  });

  it("answers 204 for a session revoked by a ban or by revoke-all", async () => {
    const { api, user, opened } = await userWithSessions(2);
    await api.delete(`/users/${user.id}/sessions`);
    expect((await api.delete(`/users/${user.id}/sessions/${opened[0]}`)).status).toBe(204);
    await api.post(`/users/${user.id}/ban`);
    expect((await api.delete(`/users/${user.id}/sessions/${opened[1]}`)).status).toBe(204);
  });

  it("answers 204 for an expired session and marks it revoked", async () => {
    const { api, user, opened } = await userWithSessions(1);
    await expireSession(opened[0]!);
    expect((await listSessions(api, user.id)).items[0]?.status).toBe("expired");
    expect((await api.delete(`/users/${user.id}/sessions/${opened[0]}`)).status).toBe(204);
    const [session] = (await listSessions(api, user.id)).items;
    expect(session?.status).toBe("revoked");
    expect(session?.revokedAt).not.toBeNull();
  });

  it("answers 404 for an unknown session and for another user's session, leaving it active", async () => {
    const { api, user, environmentId } = await userWithSessions(1);
    expectProblem(await api.delete(`/users/${user.id}/sessions/${unknownId()}`), 404, "resource_not_found");
    const other = await createUser(api, {});
    const { session } = await openSession(environmentId, other.id);
    expectProblem(await api.delete(`/users/${user.id}/sessions/${session.id}`), 404, "resource_not_found");
    expect((await listSessions(api, other.id)).items[0]?.status).toBe("active");
  });

  it("answers 404 for an unknown user", async () => {
    const { api, opened } = await userWithSessions(1);
    expectProblem(await api.delete(`/users/${unknownId()}/sessions/${opened[0]}`), 404, "resource_not_found");
  });

  it("answers 400 for a malformed session id or user id", async () => {
    const { api, user, opened } = await userWithSessions(1);
    const bad = await api.delete(`/users/${user.id}/sessions/not-a-session`);
    expectProblem(bad, 400, "invalid_request");
    expect(problemFields(bad)).toEqual(["sessionId"]);
    expectProblem(await api.delete(`/users/bad/sessions/${opened[0]}`), 400, "invalid_request");
    expect((await listSessions(api, user.id)).items[0]?.status).toBe("active");
  });
});

describe("DELETE /api/server/v1/users/{userId}/sessions", () => {
  it("revokes every active session and says how many", async () => {
    const { api, user, opened } = await userWithSessions(3);
    await api.delete(`/users/${user.id}/sessions/${opened[0]}`);
    const res = await api.delete(`/users/${user.id}/sessions`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ revokedCount: 2 });
    const sessions = (await listSessions(api, user.id)).items;
    expect(sessions.map((s) => s.status)).toEqual(["revoked", "revoked", "revoked"]);
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);
  });

  it("is repeatable: a second call revokes nothing", async () => {
    const { api, user } = await userWithSessions(2);
    expect((await api.delete(`/users/${user.id}/sessions`)).body).toEqual({ revokedCount: 2 });
    expect((await api.delete(`/users/${user.id}/sessions`)).body).toEqual({ revokedCount: 0 });
  });

  it("touches only this user's sessions", async () => {
    const { api, user, environmentId } = await userWithSessions(2);
    const other = await createUser(api, {});
    await openSession(environmentId, other.id);
    await api.delete(`/users/${user.id}/sessions`);
    expect((await listSessions(api, other.id)).items.map((s) => s.status)).toEqual(["active"]);
  });

  it("answers 404 for an unknown user and 400 for a malformed id", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.delete(`/users/${unknownId()}/sessions`), 404, "resource_not_found");
    expectProblem(await api.delete("/users/zzz/sessions"), 400, "invalid_request");
  });
});
