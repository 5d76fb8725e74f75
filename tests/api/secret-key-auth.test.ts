import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createSecretKey, revokeSecretKey } from "@/lib/environments/api-keys";
import { ALL_SERVER_OPERATIONS, call, expectProblem } from "../helpers/api";
import { createUser, newEnvironment, openSession, revokedSecretKey } from "../helpers/fixtures";

/** CONTRACT §2: the Server API takes `Authorization: Bearer <secretKey>`; anything else is 401. */
describe("secret key authentication on every Server API operation", () => {
  let env: Awaited<ReturnType<typeof newEnvironment>>;
  let ids: { userId: string; sessionId: string };
  let revoked: string;

  beforeAll(async () => {
    env = await newEnvironment();
    const user = await createUser(env.api, { firstName: "Guarded" });
    ids = { userId: user.id, sessionId: (await openSession(env.environmentId, user.id)).session.id };
    revoked = await revokedSecretKey(env.environmentId);
  });

  const badCredentials: [string, (() => string | undefined)][] = [
    ["no Authorization header", () => undefined],
    ["an empty header", () => ""],
    ["the key without the Bearer scheme", () => env.secretKey],
    ["Basic instead of Bearer", () => `Basic ${Buffer.from(`${env.secretKey}:`).toString("base64")}`],
    ["the publishable key", () => `Bearer ${env.publishableKey}`],
    ["a made-up key of the right shape", () => `Bearer sk_test_${"A".repeat(43)}`],
    ["a truncated key", () => `Bearer ${env.secretKey.slice(0, -1)}`],
    ["a revoked key", () => `Bearer ${revoked}`],
  ];

  for (const [label, authorization] of badCredentials) {
    it.each(ALL_SERVER_OPERATIONS.map((op) => [op.name, op] as const))(`%s with ${label}: 401 unauthorized`, async (_name, op) => {
      const headers: Record<string, string> = {};
      const value = authorization();
      if (value !== undefined) headers.authorization = value;
      const res = await call(op.method, `/api/server/v1${op.path(ids)}`, { body: op.body, headers });
      expectProblem(res, 401, "unauthorized");
    });
  }

  it("nothing was changed by the refused requests", async () => {
    const user = (await env.api.get(`/users/${ids.userId}`)).body;
    expect(user).toMatchObject({ status: "active", firstName: "Guarded", publicMetadata: {}, deletedAt: null });
    const sessions = (await env.api.get(`/users/${ids.userId}/sessions`)).body.items;
    expect(sessions.map((s: { status: string }) => s.status)).toEqual(["active"]);
    expect((await env.api.post("/users/search", {})).body.items).toHaveLength(1);
  });

  it("revoking a key takes effect on the very next request, other keys keep working", async () => {
    const { api, environmentId, secretKey } = await newEnvironment();
    const second = await createSecretKey(getDb(), { id: environmentId, kind: "development" });
    const viaSecond = await call("GET", "/api/server/v1/allowed-origins", { headers: { authorization: `Bearer ${second.secretKey}` } });
    expect(viaSecond.status).toBe(200);
    await revokeSecretKey(getDb(), second.id);
    const after = await call("GET", "/api/server/v1/allowed-origins", { headers: { authorization: `Bearer ${second.secretKey}` } });
    expectProblem(after, 401, "unauthorized");
    expect((await api.get("/allowed-origins")).status).toBe(200);
    expect(secretKey).not.toBe(second.secretKey);
  });

  it("the error says how to authenticate and leaks nothing about the key", async () => {
    const res = await call("GET", `/api/server/v1/users/${ids.userId}`, { headers: { authorization: `Bearer ${revoked}` } });
    expectProblem(res, 401, "unauthorized");
    expect(res.text).not.toContain(revoked);
    expect(res.text).not.toContain(ids.userId);
  });
});
