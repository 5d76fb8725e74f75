import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { eventCatalogue } from "@/lib/audit/event-catalogue";
import { jobActor, recordEvent, SYSTEM_ACTOR, type Actor, type NewEvent } from "@/lib/audit/record-event";
import { clientApi, signedUpClient } from "../../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../../helpers/fixtures";

async function eventsOf(subjectId: string) {
  return getDb().select().from(events).where(eq(events.subjectId, subjectId)).orderBy(events.createdAt);
}

describe("the event writer", () => {
  it("stores type, environment, payload, actor, on-behalf-of and request id: what a webhook delivery needs", async () => {
    const { environmentId } = await newEnvironment();
    const userId = randomUUID();
    const actor: Actor = { type: "user", id: userId, requestId: "req_impersonated1", onBehalfOf: { type: "operator", id: "op_1" } };
    await recordEvent(getDb(), { environmentId, type: "email.added", actor, subjectId: userId, data: { emailAddressId: userId } });
    const [row] = await eventsOf(userId);
    expect(row).toMatchObject({
      environmentId,
      type: "email.added",
      actorType: "user",
      actorId: userId,
      onBehalfOfType: "operator",
      onBehalfOfId: "op_1",
      requestId: "req_impersonated1",
      data: { emailAddressId: userId },
    });
    expect(row?.createdAt).toBeInstanceOf(Date);
  });

  it("a job records itself as the system with its job id; the command line says null explicitly", async () => {
    const { environmentId } = await newEnvironment();
    const jobId = randomUUID();
    const subjectId = randomUUID();
    await recordEvent(getDb(), { environmentId, type: "user.data_export_ready", actor: jobActor(jobId), subjectId, data: { dataRequestId: jobId } });
    await recordEvent(getDb(), { environmentId, type: "user.unbanned", actor: SYSTEM_ACTOR, subjectId });
    expect((await eventsOf(subjectId)).map((row) => [row.actorType, row.actorId, row.requestId])).toEqual([
      ["system", null, `job_${jobId}`],
      ["system", null, null],
    ]);
  });

  it("refuses at compile time an unknown type, a wrong payload, a missing subject or a request actor without request id", () => {
    const actor: Actor = { type: "secret_key", id: "key_1", requestId: "req_1" };
    const ok: NewEvent = { environmentId: "e", type: "user.banned", actor, subjectId: "u", data: { revokedSessions: 1 } };
    // @ts-expect-error unknown event type
    const unknownType: NewEvent = { environmentId: "e", type: "user.teleported", actor, subjectId: "u" };
    // @ts-expect-error wrong payload: revokedSessions is a number
    const wrongPayload: NewEvent = { environmentId: "e", type: "user.banned", actor, subjectId: "u", data: { revokedSessions: "all" } };
    // @ts-expect-error the payload is required for this type
    const missingPayload: NewEvent = { environmentId: "e", type: "session.revoked", actor, subjectId: "u" };
    // @ts-expect-error a user event must name its user
    const missingSubject: NewEvent = { environmentId: "e", type: "user.unbanned", actor };
    // @ts-expect-error a request actor always carries its request id
    const noRequestId: Actor = { type: "user", id: "u", requestId: null };
    expect([ok, unknownType, wrongPayload, missingPayload, missingSubject, noRequestId]).toHaveLength(6);
  });

  it("refuses at run time a payload key the catalogue does not list (as a spread could smuggle in), writing nothing", async () => {
    const { environmentId } = await newEnvironment();
    const subjectId = randomUUID();
    const extra = { emailAddressId: subjectId, email: "ada@example.com" };
    const actor: Actor = { type: "user", id: subjectId, requestId: "req_spread01" };
    await expect(recordEvent(getDb(), { environmentId, type: "email.removed", actor, subjectId, data: { ...extra } })).rejects.toThrow();
    expect(await eventsOf(subjectId)).toEqual([]);
  });

  it("rolls back with the transaction it is written in", async () => {
    const { environmentId } = await newEnvironment();
    const subjectId = randomUUID();
    const actor: Actor = { type: "user", id: subjectId, requestId: "req_rollback1" };
    await expect(
      getDb().transaction(async (tx) => {
        await recordEvent(tx, { environmentId, type: "session.reverified", actor, subjectId, data: { method: "pwd" } });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await eventsOf(subjectId)).toEqual([]);
  });

  it("every catalogue payload schema accepts an object (webhooks will publish them)", () => {
    for (const [type, spec] of Object.entries(eventCatalogue)) {
      expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(spec.data.def.type).toBe("object");
    }
  });
});

describe("events written by requests carry the request's id (regression: sign-in, sign-up, sign-out wrote none)", () => {
  it("sign-up, sign-in and sign-out events hold the X-Request-Id of the request that made them", async () => {
    const { publishableKey } = await newEnvironment();
    const email = uniqueEmail();
    const { session } = await signedUpClient(publishableKey, email, STRONG_PASSWORD);
    const userId = session.user.id;

    const client = clientApi(publishableKey);
    const signedIn = await client.post("/auth/login", { email, password: STRONG_PASSWORD }, { "x-request-id": "req_signin_0001" });
    expect(signedIn.status).toBe(200);
    const signedOut = await client.post("/auth/logout", undefined, { "x-request-id": "req_signout_001" });
    expect(signedOut.status).toBeLessThan(300);

    const rows = await eventsOf(userId);
    expect(rows.find((row) => row.type === "user.signed_up")?.requestId).toMatch(/^req_/);
    // Every way into a session goes through establishSession, so the sign-up's session has its event too.
    const created = rows.filter((row) => row.type === "session.created");
    expect(created.map((row) => row.requestId)).toHaveLength(2);
    expect(created.find((row) => (row.data as { sessionId: string }).sessionId === signedIn.body.session.id)?.requestId).toBe("req_signin_0001");
    expect(rows.find((row) => row.type === "session.revoked")).toMatchObject({
      actorType: "user",
      actorId: userId,
      requestId: "req_signout_001",
      data: { sessionId: signedIn.body.session.id, reason: "sign_out" },
    });
  });

  it("the id in the response header is the id on the event, when the server mints it", async () => {
    const { api } = await newEnvironment();
    const created = await api.post("/users", { email: uniqueEmail() });
    const [row] = await eventsOf(created.body.id);
    expect(row?.requestId).toBe(created.headers.get("x-request-id"));
  });
});
