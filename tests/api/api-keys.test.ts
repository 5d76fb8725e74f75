import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { getDb } from "@/db/client";
import { apiKeys, environments, events } from "@/db/schema";
import { runOperatorOperation } from "@/lib/dashboard/run-operator-operation";
import { findEnvironment } from "@/lib/environments/context";
import { replaceFrontendHostsEndpoint } from "@/lib/applications/endpoints";
import { createSecretKeyEndpoint, getFrontendHostsEndpoint, listSecretKeysEndpoint, revokeSecretKeyEndpoint } from "@/lib/environments/server-endpoints";
import type { OperatorRole } from "@/lib/operation/caller";
import { internalEnvironment } from "@/lib/operators/internal-environment";
import { expectProblem, problemFields, refusalOf, serverApi } from "../helpers/api";
import { newEnvironment, unknownId } from "../helpers/fixtures";

const context = { requestId: "req_api_keys_test", ip: "127.0.0.1", userAgent: "vitest", origin: null, host: null, acceptsHtml: false, sessionCookieHashes: [] };
const operator = (role: OperatorRole) => ({ id: `op_${role}`, email: `${role}@operators.example.com`, role, hasSecondFactor: true, sessionProvedSecondFactor: true });

async function environmentOf(environmentId: string) {
  const environment = await findEnvironment(getDb(), environmentId);
  if (!environment) throw new Error("no environment");
  return environment;
}

afterEach(() => vi.restoreAllMocks());

describe("GET|POST /api/server/v1/api-keys, DELETE /api-keys/{keyId}", () => {
  it("creates a key shown once (201 with secret), lists keys without any secret, and the new key works", async () => {
    const env = await newEnvironment();
    const created = await env.api.post("/api-keys", { label: "  billing worker  " });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ label: "billing worker", revokedAt: null, lastUsedAt: null });
    expect(created.body.secret).toMatch(/^sk_test_/);
    expect(created.body.displayPrefix).toBe(`${created.body.secret.slice(0, 12)}…`);
    const list = await env.api.get("/api-keys");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.text).not.toContain(created.body.secret);
    expect(list.text).not.toContain(env.secretKey);
    expect(list.body.items.every((item: Record<string, unknown>) => !("secret" in item))).toBe(true);
    expect((await serverApi(created.body.secret).get("/users/count")).status).toBe(200);
    const [event] = await getDb().select().from(events).where(and(eq(events.environmentId, env.environmentId), eq(events.type, "api_key.created")));
    expect(event?.data).toEqual({ keyId: created.body.id });
  });

  it("a revoked key stops working on the next request; the last active key is refused with 409 last_secret_key", async () => {
    const env = await newEnvironment();
    const second = (await env.api.post("/api-keys", {})).body;
    const secondApi = serverApi(second.secret);
    expect((await secondApi.get("/api-keys")).status).toBe(200);
    const [first] = (await env.api.get("/api-keys")).body.items.filter((item: { id: string }) => item.id !== second.id);
    // Revoked by the second key itself: the first key is gone at once.
    const revoked = await secondApi.delete(`/api-keys/${first.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expectProblem(await env.api.get("/api-keys"), 401, "unauthorized");
    // Again: it is no longer an active key.
    expectProblem(await secondApi.delete(`/api-keys/${first.id}`), 404, "resource_not_found");
    const last = await secondApi.delete(`/api-keys/${second.id}`);
    expectProblem(last, 409, "last_secret_key");
    expect((await secondApi.get("/users/count")).status).toBe(200);
  });

  it("two concurrent revocations of the last two keys: exactly one wins", async () => {
    const env = await newEnvironment();
    await env.api.post("/api-keys", {});
    const ids = (await env.api.get("/api-keys")).body.items.map((item: { id: string }) => item.id);
    // An operator's credential does not depend on the keys, so both revocations really race.
    const environment = await environmentOf(env.environmentId);
    const results = await Promise.allSettled(
      ids.map((keyId: string) => runOperatorOperation(revokeSecretKeyEndpoint, operator("admin"), environment, { params: { keyId } }, context)),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((result) => result.status === "rejected");
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "last_secret_key", status: 409 });
    const active = await getDb().select().from(apiKeys).where(eq(apiKeys.environmentId, env.environmentId));
    expect(active.filter((row) => row.revokedAt === null)).toHaveLength(1);
  });

  it("another environment's key id, an unknown id and a malformed id: 404, 404, 400; the other key keeps working", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    const otherKey = (await other.api.post("/api-keys", {})).body;
    expectProblem(await env.api.delete(`/api-keys/${otherKey.id}`), 404, "resource_not_found");
    expect((await serverApi(otherKey.secret).get("/users/count")).status).toBe(200);
    expectProblem(await env.api.delete(`/api-keys/${unknownId()}`), 404, "resource_not_found");
    expectProblem(await env.api.delete("/api-keys/not-a-uuid"), 400, "invalid_request");
  });

  it("hostile input: unknown fields, a label too long, a control character, a non-object body: 400 naming the field", async () => {
    const env = await newEnvironment();
    const extra = await env.api.post("/api-keys", { label: "x", secret: "sk_test_mine" });
    expectProblem(extra, 400, "invalid_request");
    expectProblem(await env.api.post("/api-keys", { label: "x".repeat(101) }), 400, "invalid_request");
    const control = await env.api.post("/api-keys", { label: "bad\u0007label" });
    expectProblem(control, 400, "invalid_request");
    expect(problemFields(control)).toContain("label");
    expectProblem(await env.api.post("/api-keys", [1, 2]), 400, "invalid_request");
    expectProblem(await env.api.post("/api-keys", { label: 42 }), 400, "invalid_request");
    expect((await env.api.get("/api-keys")).body.items).toHaveLength(1);
  });

  it("records last use at most once a minute per key (a second request within the minute writes nothing)", async () => {
    const env = await newEnvironment();
    const key = (await env.api.post("/api-keys", { label: "clock" })).body;
    const api = serverApi(key.secret);
    const lastUsed = async () => (await getDb().select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    await api.get("/users/count");
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await api.get("/users/count");
    expect(await lastUsed()).toEqual(first);
    // Two minutes later (this process's clock, and the stored value moved back as if written then).
    const past = new Date(Date.now() - 120_000);
    await getDb().update(apiKeys).set({ lastUsedAt: past }).where(eq(apiKeys.id, key.id));
    const now = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(now + 120_000);
    await api.get("/users/count");
    expect((await lastUsed())?.getTime()).toBeGreaterThan(past.getTime());
    const listed = (await api.get("/api-keys")).body.items.find((item: { id: string }) => item.id === key.id);
    expect(listed.lastUsedAt).not.toBeNull();
  });
});

describe("secret keys through the dashboard runner", () => {
  it("a viewer lists keys but never creates one (no secret) nor revokes one: 403 forbidden naming the permission", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const list = await runOperatorOperation(listSecretKeysEndpoint, operator("viewer"), environment, {}, context);
    expect(list?.items).toHaveLength(1);
    const create = await refusalOf(runOperatorOperation(createSecretKeyEndpoint, operator("viewer"), environment, { body: {} }, context));
    expect(create.code).toBe("forbidden");
    expect(create.properties).toMatchObject({ permission: "revealSecrets" });
    const keyId = list?.items[0]?.id ?? "";
    const revoke = await refusalOf(runOperatorOperation(revokeSecretKeyEndpoint, operator("viewer"), environment, { params: { keyId } }, context));
    expect(revoke.code).toBe("forbidden");
    expect((await env.api.get("/api-keys")).body.items).toHaveLength(1);
  });

  it("an admin creates a key (its event names the operator) and revokes it", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    const created = await runOperatorOperation(createSecretKeyEndpoint, operator("admin"), environment, { body: { label: "from the dashboard" } }, context);
    expect(created?.secret).toMatch(/^sk_test_/);
    const revoked = await runOperatorOperation(revokeSecretKeyEndpoint, operator("admin"), environment, { params: { keyId: created?.id } }, context);
    expect(revoked?.revokedAt).not.toBeNull();
    const rows = await getDb().select().from(events).where(and(eq(events.environmentId, env.environmentId), eq(events.type, "api_key.revoked")));
    expect(rows[0]).toMatchObject({ actorType: "operator", actorId: "op_admin" });
  });
});

describe("GET /api/server/v1/signing-keys", () => {
  it("lists the active key and, after a rotation, the retired one: public material only", async () => {
    const env = await newEnvironment();
    const before = await env.api.get("/signing-keys");
    expect(before.status).toBe(200);
    expect(before.body.items).toHaveLength(1);
    expect(before.body.items[0]).toMatchObject({ alg: "ES256", status: "active", retiredAt: null });
    const rotated = await env.api.post("/signing-keys/rotate");
    const after = (await env.api.get("/signing-keys")).body.items;
    expect(after.map((key: { kid: string; status: string }) => [key.kid, key.status])).toEqual([
      [rotated.body.kid, "active"],
      [before.body.items[0].kid, "retired"],
    ]);
    for (const key of after) expect(key.publicJwk.d).toBeUndefined();
    expect(JSON.stringify(after)).not.toMatch(/private|sealed/i);
  });
});

describe("GET /api/server/v1/frontend-hosts", () => {
  it("a secret key reads its environment's hosts", async () => {
    const env = await newEnvironment();
    const listed = await env.api.get("/frontend-hosts");
    expect(listed.status).toBe(200);
    expect(listed.body.hosts).toEqual([env.frontendHost]);
  });

  it("regression: a secret key cannot replace the hosts (PUT is 405 with Allow), so it cannot point the environment at a host nobody vouched for", async () => {
    const env = await newEnvironment();
    const put = await env.api.put("/frontend-hosts", { hosts: ["attacker.example.test"] });
    expectProblem(put, 405, "method_not_allowed");
    expect(put.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await env.api.get("/frontend-hosts")).body.hosts).toEqual([env.frontendHost]);
    const [row] = await getDb().select().from(environments).where(eq(environments.id, env.environmentId));
    expect(row?.frontendHosts).toEqual([env.frontendHost]);
    const replaced = await getDb().select().from(events).where(and(eq(events.environmentId, env.environmentId), eq(events.type, "environment.frontend_hosts_replaced")));
    expect(replaced).toHaveLength(0);
  });
});

describe("replacing frontend hosts (dashboard-only operation)", () => {
  const replace = (role: OperatorRole, environmentId: string, body: unknown) =>
    runOperatorOperation(replaceFrontendHostsEndpoint, operator(role), null, { params: { environmentId }, body }, context);

  it("an admin replaces the hosts (normalised, deduplicated) with its event naming the operator; the secret key reads them", async () => {
    const env = await newEnvironment();
    const replaced = await replace("admin", env.environmentId, { hosts: ["App.Example.Test.", "app.example.test", "second.example.test"] });
    expect(replaced).toEqual({ hosts: ["app.example.test", "second.example.test"] });
    expect((await env.api.get("/frontend-hosts")).body.hosts).toEqual(["app.example.test", "second.example.test"]);
    const [event] = await getDb().select().from(events).where(and(eq(events.environmentId, env.environmentId), eq(events.type, "environment.frontend_hosts_replaced")));
    expect(event).toMatchObject({ actorType: "operator", actorId: "op_admin", data: { hosts: ["app.example.test", "second.example.test"] } });
  });

  it("a host that serves another environment is 409 identifier_exists naming it; nothing changes", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    const taken = await refusalOf(replace("owner", other.environmentId, { hosts: ["fresh.example.test", env.frontendHost.toUpperCase()] }));
    expect(taken).toMatchObject({ code: "identifier_exists", status: 409 });
    expect(taken.message).toContain(env.frontendHost);
    expect(taken.fieldErrors?.[0]?.field).toBe("hosts");
    expect((await other.api.get("/frontend-hosts")).body.hosts).toEqual([other.frontendHost]);
    expect((await env.api.get("/frontend-hosts")).body.hosts).toEqual([env.frontendHost]);
  });

  it("a viewer reads the hosts but is refused the replacement (403 forbidden naming write); nothing changes", async () => {
    const env = await newEnvironment();
    const environment = await environmentOf(env.environmentId);
    expect(await runOperatorOperation(getFrontendHostsEndpoint, operator("viewer"), environment, {}, context)).toEqual({ hosts: [env.frontendHost] });
    const refused = await refusalOf(replace("viewer", env.environmentId, { hosts: ["x.example.test"] }));
    expect(refused.code).toBe("forbidden");
    expect(refused.properties).toMatchObject({ permission: "write" });
    expect((await env.api.get("/frontend-hosts")).body.hosts).toEqual([env.frontendHost]);
  });

  it("an unknown environment and the dashboard's internal one are 404; a malformed id is 400", async () => {
    const internal = await internalEnvironment(getDb());
    expect((await refusalOf(replace("owner", unknownId(), { hosts: ["x.example.test"] }))).code).toBe("resource_not_found");
    expect((await refusalOf(replace("owner", internal.id, { hosts: ["x.example.test"] }))).code).toBe("resource_not_found");
    // Not even a host another environment holds tells the internal environment apart from an unknown one.
    const env = await newEnvironment();
    expect((await refusalOf(replace("owner", internal.id, { hosts: [env.frontendHost] }))).code).toBe("resource_not_found");
    expect((await refusalOf(replace("owner", "not-a-uuid", { hosts: ["x.example.test"] }))).code).toBe("invalid_request");
    const [row] = await getDb().select().from(environments).where(eq(environments.id, internal.id));
    expect(row?.frontendHosts).toEqual(internal.frontendHosts);
  });

  it("hostile input: no host, a path, a URL, a script, too many, an unknown field: 400, nothing changes", async () => {
    const env = await newEnvironment();
    for (const hosts of [[], ["example.test/path"], ["https://example.test"], ["<script>"], Array.from({ length: 21 }, (_, i) => `h${i}.example.test`), "example.test", [null]]) {
      expect((await refusalOf(replace("admin", env.environmentId, { hosts }))).code).toBe("invalid_request");
    }
    expect((await refusalOf(replace("admin", env.environmentId, { hosts: ["ok.example.test"], extra: 1 }))).code).toBe("invalid_request");
    expect((await env.api.get("/frontend-hosts")).body.hosts).toEqual([env.frontendHost]);
  });
});
