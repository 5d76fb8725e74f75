import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { clientApi, signedUpClient } from "../helpers/client";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

/** The `session.revoked` events of a user, as (session, reason, actor type, request id). */
async function revocations(userId: string) {
  const rows = await getDb()
    .select()
    .from(events)
    .where(and(eq(events.subjectId, userId), eq(events.type, "session.revoked")));
  return rows.map((row) => ({ ...(row.data as { sessionId: string; reason: string }), actorType: row.actorType, requestId: row.requestId }));
}

const byId = (a: { sessionId: string }, b: { sessionId: string }) => a.sessionId.localeCompare(b.sessionId);

describe("every revocation writes one session.revoked event per session (regression: bulk revocations wrote none per session)", () => {
  it("a ban: one event per revoked session, reason user_banned, with the secret key and its request id", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    const opened = [await openSession(environmentId, user.id), await openSession(environmentId, user.id)];
    const banned = await api.post(`/users/${user.id}/ban`);
    expect(banned.status).toBe(200);
    const requestId = banned.headers.get("x-request-id");
    expect((await revocations(user.id)).sort(byId)).toEqual(
      opened
        .map(({ session }) => ({ sessionId: session.id, reason: "user_banned", actorType: "secret_key", requestId }))
        .sort(byId),
    );
    // Banning again revokes nothing more, so records nothing more.
    await api.post(`/users/${user.id}/ban`);
    expect(await revocations(user.id)).toHaveLength(2);
  });

  it("Server API revoke-one and revoke-all, and deletion", async () => {
    const { api, environmentId } = await newEnvironment();
    const user = await createUser(api, {});
    const [one, two, three] = [
      await openSession(environmentId, user.id),
      await openSession(environmentId, user.id),
      await openSession(environmentId, user.id),
    ];
    expect((await api.delete(`/users/${user.id}/sessions/${one.session.id}`)).status).toBe(204);
    expect((await api.delete(`/users/${user.id}/sessions/${one.session.id}`)).status).toBe(204);
    expect((await api.delete(`/users/${user.id}/sessions`)).status).toBe(200);
    const four = await openSession(environmentId, user.id);
    expect((await api.delete(`/users/${user.id}`)).status).toBe(200);
    expect((await revocations(user.id)).map(({ sessionId, reason }) => ({ sessionId, reason })).sort(byId)).toEqual(
      [
        { sessionId: one.session.id, reason: "revoke" },
        { sessionId: two.session.id, reason: "revoke_all" },
        { sessionId: three.session.id, reason: "revoke_all" },
        { sessionId: four.session.id, reason: "user_deleted" },
      ].sort(byId),
    );
  });

  it("the user's own revocations: another device, everywhere else, a password change; the current session is never among them", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail();
    const { client, session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const userId = session.user.id;
    const currentId = session.session.id;
    const signIn = async () => (await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD })).body.session.id as string;

    const laptop = await signIn();
    expect((await client.delete(`/users/me/sessions/${laptop}`)).status).toBe(200);
    const [phone, tablet] = [await signIn(), await signIn()];
    expect((await client.post("/users/me/sessions/revoke-others")).body).toEqual({ revokedCount: 2 });
    const desktop = await signIn();
    const changed = await client.post("/users/me/password", { currentPassword: STRONG_PASSWORD, newPassword: `${STRONG_PASSWORD} 2` });
    expect(changed.body.revokedSessions).toBe(1);

    const found = await revocations(userId);
    expect(found.map(({ sessionId, reason, actorType }) => ({ sessionId, reason, actorType })).sort(byId)).toEqual(
      [
        { sessionId: laptop, reason: "revoke", actorType: "user" },
        { sessionId: phone, reason: "revoke_others", actorType: "user" },
        { sessionId: tablet, reason: "revoke_others", actorType: "user" },
        { sessionId: desktop, reason: "password_changed", actorType: "user" },
      ].sort(byId),
    );
    expect(found.every((event) => event.requestId?.startsWith("req_"))).toBe(true);
    expect(found.map((event) => event.sessionId)).not.toContain(currentId);
  });
});
