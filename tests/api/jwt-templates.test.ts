import { eq } from "drizzle-orm";
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { jwtTemplates, users } from "@/db/schema";
import { call, type ApiResponse } from "../helpers/api";
import { newEnvironment, openSession } from "../helpers/fixtures";
import { frontendHostOrigin } from "@/lib/environments/environment-links";

type Environment = Awaited<ReturnType<typeof newEnvironment>>;

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
let counter = 0;

function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body.code).toBe(code);
}

function fieldsOf(res: ApiResponse): string[] {
  return ((res.body.properties?.errors ?? []) as { field: string }[]).map((error) => error.field);
}

async function createTemplate(env: Environment, body: Record<string, unknown>) {
  const res = await env.api.post("/jwt-templates", body);
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string; claims: Record<string, unknown>; lifetimeSeconds: number; createdAt: string };
}

async function signedIn(env: Environment, body: Record<string, unknown> = {}) {
  counter += 1;
  const res = await env.api.post("/users", { email: `tpl-${counter}-${Date.now()}@example.com`, ...body });
  expect(res.status, res.text).toBe(201);
  const { session, token } = await openSession(env.environmentId, res.body.id);
  return { user: res.body as { id: string; email: string }, session, token };
}

function mint(env: Environment, name: string, sessionToken?: string, extra: Record<string, string> = {}) {
  return call("POST", `/_svc/auth/token/${encodeURIComponent(name)}`, {
    headers: { "x-api-key": env.publishableKey, ...(sessionToken ? { cookie: `__gh_session=${sessionToken}` } : {}), ...extra },
  });
}

async function verified(env: Environment, accessToken: string) {
  const jwks = (await call("GET", "/_svc/.well-known/jwks.json", { headers: { "x-api-key": env.publishableKey } })).body as JSONWebKeySet;
  const issuer = (await call("GET", "/_svc/.well-known/openid-configuration", { headers: { "x-api-key": env.publishableKey } })).body.issuer;
  return (await jwtVerify(accessToken, createLocalJWKSet(jwks), { issuer, algorithms: ["ES256"] })).payload;
}

describe("JWT template CRUD (Server API)", () => {
  it("creates, reads, lists, updates and deletes a template", async () => {
    const env = await newEnvironment();
    const created = await createTemplate(env, { name: "supabase", claims: { role: "authenticated", aud: "authenticated" } });
    expect(created).toMatchObject({ name: "supabase", claims: { role: "authenticated", aud: "authenticated" }, lifetimeSeconds: 60 });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);

    expect((await env.api.get(`/jwt-templates/${created.id}`)).body).toEqual(created);
    await createTemplate(env, { name: "Analytics", claims: {}, lifetimeSeconds: 3600 });
    const list = await env.api.get("/jwt-templates");
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: { name: string }) => t.name)).toEqual(["Analytics", "supabase"]);

    const updated = await env.api.patch(`/jwt-templates/${created.id}`, { name: "hasura", claims: { x: 1 }, lifetimeSeconds: 86_400 });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, name: "hasura", claims: { x: 1 }, lifetimeSeconds: 86_400 });
    expect(new Date(updated.body.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(created.createdAt).getTime());

    const deleted = await env.api.delete(`/jwt-templates/${created.id}`);
    expect(deleted.status).toBe(204);
    expectError(await env.api.get(`/jwt-templates/${created.id}`), 404, "resource_not_found");
    expectError(await env.api.delete(`/jwt-templates/${created.id}`), 404, "resource_not_found");
  });

  it("defaults the lifetime to the environment's token lifetime at creation", async () => {
    const env = await newEnvironment();
    expect((await env.api.patch("/environment", { sessions: { tokenLifetimeSeconds: 120 } })).status).toBe(200);
    expect((await createTemplate(env, { name: "default-life", claims: {} })).lifetimeSeconds).toBe(120);
  });

  it("refuses every reserved claim with 400 naming it", async () => {
    const env = await newEnvironment();
    for (const claim of ["iss", "sub", "sid", "exp", "iat", "nbf", "env", "azp", "act", "org_id", "org_role"]) {
      const res = await env.api.post("/jwt-templates", { name: `r-${claim}`, claims: { [claim]: "x" } });
      expectError(res, 400, "invalid_request");
      expect(fieldsOf(res)).toContain(`claims.${claim}`);
    }
    const allowed = await createTemplate(env, { name: "aud-ok", claims: { aud: "api", jti: "static", nested: { sub: "fine below the top" } } });
    expect(allowed.claims.aud).toBe("api");
  });

  it("refuses bad names", async () => {
    const env = await newEnvironment();
    for (const name of ["", "has space", "a".repeat(65), "dot.name", "../up", "ünïcode", "slash/name", 42, null]) {
      expectError(await env.api.post("/jwt-templates", { name, claims: {} }), 400, "invalid_request");
    }
    expect((await createTemplate(env, { name: "a".repeat(64), claims: {} })).name).toHaveLength(64);
  });

  it("refuses claims over 4096 bytes, non-objects, bad lifetimes and unknown fields", async () => {
    const env = await newEnvironment();
    const oversize = await env.api.post("/jwt-templates", { name: "big", claims: { blob: "x".repeat(4100) } });
    expectError(oversize, 400, "invalid_request");
    expect(oversize.body.detail).toMatch(/4096/);
    // Multi-byte characters count as bytes, not characters.
    expectError(await env.api.post("/jwt-templates", { name: "big2", claims: { blob: "é".repeat(2100) } }), 400, "invalid_request");
    expect((await env.api.post("/jwt-templates", { name: "fits", claims: { blob: "x".repeat(4000) } })).status).toBe(201);
    for (const claims of [[], "claims", 1, null]) {
      expectError(await env.api.post("/jwt-templates", { name: "shape", claims }), 400, "invalid_request");
    }
    expectError(await env.api.post("/jwt-templates", { name: "nobody" }), 400, "invalid_request");
    for (const lifetimeSeconds of [29, 86_401, 60.5, "60", -1]) {
      expectError(await env.api.post("/jwt-templates", { name: "life", claims: {}, lifetimeSeconds }), 400, "invalid_request");
    }
    expectError(await env.api.post("/jwt-templates", { name: "extra", claims: {}, signingKey: "x" }), 400, "invalid_request");
  });

  it("refuses {{user.private_metadata}} in any spelling and position", async () => {
    const env = await newEnvironment();
    const variants = [
      { secret: "{{user.private_metadata}}" },
      { secret: "{{ user.private_metadata.stripe_id }}" },
      { secret: "{{user.privateMetadata}}" },
      { secret: "{{USER.PRIVATE_METADATA}}" },
      { text: "id: {{user.id}}, secret: {{user.private_metadata.x}}" },
      { deep: { list: ["ok", { inner: "{{user.private_metadata}}" }] } },
    ];
    for (const claims of variants) {
      const res = await env.api.post("/jwt-templates", { name: "leak", claims });
      expectError(res, 400, "invalid_request");
      expect(res.body.detail).toMatch(/private metadata/i);
    }
    const template = await createTemplate(env, { name: "ok", claims: {} });
    expectError(await env.api.patch(`/jwt-templates/${template.id}`, { claims: { s: "{{user.private_metadata}}" } }), 400, "invalid_request");
  });

  it("refuses __proto__ keys at any depth and NUL characters", async () => {
    const env = await newEnvironment();
    for (const raw of [
      '{"name":"proto","claims":{"__proto__":{"admin":true}}}',
      '{"name":"proto","claims":{"a":{"b":[{"__proto__":1}]}}}',
      '{"name":"nul","claims":{"a":"x\\u0000y"}}',
      '{"name":"nul","claims":{"a\\u0000":"x"}}',
    ]) {
      const res = await env.api.raw("POST", "/jwt-templates", { rawBody: raw, headers: { "content-type": "application/json" } });
      expectError(res, 400, "invalid_request");
    }
    expect((await env.api.get("/jwt-templates")).body.data).toEqual([]);
  });

  it("answers a body over 64 KiB with 413", async () => {
    const env = await newEnvironment();
    const res = await env.api.post("/jwt-templates", { name: "huge", claims: { blob: "x".repeat(70_000) } });
    expectError(res, 413, "payload_too_large");
  });

  it("answers 409 identifier_exists for a duplicate name, on create and on rename", async () => {
    const env = await newEnvironment();
    const first = await createTemplate(env, { name: "dup", claims: {} });
    const again = await env.api.post("/jwt-templates", { name: "dup", claims: { other: true } });
    expectError(again, 409, "identifier_exists");
    expect(fieldsOf(again)).toEqual(["name"]);
    const second = await createTemplate(env, { name: "second", claims: {} });
    expectError(await env.api.patch(`/jwt-templates/${second.id}`, { name: "dup" }), 409, "identifier_exists");
    // Renaming a template to its own name is not a conflict; names are unique per environment only.
    expect((await env.api.patch(`/jwt-templates/${first.id}`, { name: "dup" })).status).toBe(200);
    const other = await newEnvironment();
    expect((await other.api.post("/jwt-templates", { name: "dup", claims: {} })).status).toBe(201);
  });

  it("answers 409 to exactly all but one of concurrent creates of one name", async () => {
    const env = await newEnvironment();
    const results = await Promise.all([1, 2, 3].map(() => env.api.post("/jwt-templates", { name: "race", claims: {} })));
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409]);
  });

  it("answers 403 environment_mismatch for another environment's template, 404 for an unknown one, 400 for a malformed id", async () => {
    const owner = await newEnvironment();
    const intruder = await newEnvironment();
    const template = await createTemplate(owner, { name: "mine", claims: { a: 1 } });
    expectError(await intruder.api.get(`/jwt-templates/${template.id}`), 403, "environment_mismatch");
    expectError(await intruder.api.patch(`/jwt-templates/${template.id}`, { claims: { pwned: true } }), 403, "environment_mismatch");
    expectError(await intruder.api.delete(`/jwt-templates/${template.id}`), 403, "environment_mismatch");
    expect((await intruder.api.get("/jwt-templates")).body.data).toEqual([]);
    expect((await owner.api.get(`/jwt-templates/${template.id}`)).body.claims).toEqual({ a: 1 });

    for (const method of ["get", "delete"] as const) {
      expectError(await owner.api[method](`/jwt-templates/${UNKNOWN_ID}`), 404, "resource_not_found");
      expectError(await owner.api[method]("/jwt-templates/not-a-uuid"), 400, "invalid_request");
    }
    expectError(await owner.api.patch(`/jwt-templates/${UNKNOWN_ID}`, { name: "x" }), 404, "resource_not_found");
  });

  it("answers 401 to every operation without a valid secret key", async () => {
    const env = await newEnvironment();
    const template = await createTemplate(env, { name: "auth", claims: {} });
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/server/v1/jwt-templates"],
      ["POST", "/api/server/v1/jwt-templates", { name: "x", claims: {} }],
      ["GET", `/api/server/v1/jwt-templates/${template.id}`],
      ["PATCH", `/api/server/v1/jwt-templates/${template.id}`, { name: "y" }],
      ["DELETE", `/api/server/v1/jwt-templates/${template.id}`],
    ];
    for (const [method, path, body] of cases) {
      expectError(await call(method, path, { body }), 401, "unauthorized");
      expectError(await call(method, path, { body, headers: { authorization: `Bearer ${env.publishableKey}` } }), 401, "unauthorized");
    }
    expect((await env.api.get(`/jwt-templates/${template.id}`)).body.name).toBe("auth");
  });
});

describe("POST /_svc/auth/token/{templateName}", () => {
  const claims = {
    uid: "{{user.id}}",
    email: "{{user.email}}",
    first: "{{user.first_name}}",
    last: "{{user.last_name}}",
    full: "{{user.name}}",
    verified: "{{user.email_verified}}",
    meta: "{{user.public_metadata}}",
    deep: "{{ user.public_metadata.nested.level.value }}",
    list: "{{user.public_metadata.tags}}",
    theme: "{{user.unsafe_metadata.theme}}",
    session: "{{session.id}}",
    org: "{{org.id}}",
    unknown: "{{user.shoe_size}}",
    protoWalk: "{{user.constructor}}",
    protoWalk2: "{{user.__proto__}}",
    greeting: "Hi {{user.first_name}} on {{user.public_metadata.plan}} ({{user.email_verified}}){{user.nope}}!",
    inline: "meta={{user.public_metadata.nested}}",
    nested: { array: ["{{user.id}}", { email: "{{user.email}}" }, 7, true, null] },
    aud: "my-api",
    constant: 42,
  };

  it("resolves shortcodes with their JSON types, interpolates text, and keeps the standard claims", async () => {
    const env = await newEnvironment();
    await createTemplate(env, { name: "app", claims, lifetimeSeconds: 300 });
    const { user, session, token } = await signedIn(env, {
      firstName: "Ada",
      lastName: "Lovelace",
      publicMetadata: { plan: "pro", nested: { level: { value: 3 } }, tags: ["a", "b"] },
      unsafeMetadata: { theme: "dark" },
      privateMetadata: { stripeSecret: "sk_live_SUPER_SECRET" },
    });
    // The frontend host's own origin: PUBLIC_URL's scheme, and its port when the host names none.
    const origin = frontendHostOrigin(env.frontendHost);
    const res = await mint(env, "app", token, { origin });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const payload = await verified(env, res.body.accessToken);

    expect(payload).toMatchObject({
      uid: user.id,
      email: user.email,
      first: "Ada",
      last: "Lovelace",
      full: "Ada Lovelace",
      verified: true,
      meta: { plan: "pro", nested: { level: { value: 3 } }, tags: ["a", "b"] },
      deep: 3,
      list: ["a", "b"],
      theme: "dark",
      session: session.id,
      org: null,
      unknown: null,
      protoWalk: null,
      protoWalk2: null,
      greeting: "Hi Ada on pro (true)!",
      inline: 'meta={"level":{"value":3}}',
      nested: { array: [user.id, { email: user.email }, 7, true, null] },
      aud: "my-api",
      constant: 42,
    });
    expect(payload.sub).toBe(user.id);
    expect(payload.sid).toBe(session.id);
    expect(payload.env).toBe(env.environmentId);
    expect(payload.azp).toBe(origin);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
    expect(new Date(res.body.expiresAt).getTime()).toBe((payload.exp ?? 0) * 1000);
    expect(JSON.stringify(decodeJwt(res.body.accessToken))).not.toContain("SUPER_SECRET");
    expect(JSON.stringify(decodeJwt(res.body.accessToken))).not.toContain("stripeSecret");
  });

  it("resolves missing names to null and interpolates them as empty text", async () => {
    const env = await newEnvironment();
    await createTemplate(env, { name: "names", claims: { first: "{{user.first_name}}", full: "{{user.name}}", text: "[{{user.last_name}}]" } });
    const { token } = await signedIn(env);
    const payload = await verified(env, (await mint(env, "names", token)).body.accessToken);
    expect(payload).toMatchObject({ first: null, full: null, text: "[]" });
  });

  it("honours the lifetime bounds: 30 s and a day", async () => {
    const env = await newEnvironment();
    await createTemplate(env, { name: "short", claims: {}, lifetimeSeconds: 30 });
    await createTemplate(env, { name: "day", claims: {}, lifetimeSeconds: 86_400 });
    const { token } = await signedIn(env);
    for (const [name, seconds] of [["short", 30], ["day", 86_400]] as const) {
      const payload = await verified(env, (await mint(env, name, token)).body.accessToken);
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(seconds);
    }
  });

  it("lets the standard claims win over a stored template that sets them, and never reads private metadata", async () => {
    const env = await newEnvironment();
    // Written past the API's validation, as a template stored before a claim became reserved would be.
    await getDb().insert(jwtTemplates).values({
      environmentId: env.environmentId,
      name: "legacy",
      claims: { iss: "https://evil.example", sub: "admin", sid: "x", env: "other", azp: "https://evil.example", exp: 9_999_999_999, role: "kept", leak: "{{user.private_metadata}}", leak2: "x{{user.private_metadata.k}}" },
      lifetimeSeconds: 60,
    });
    const { user, session, token } = await signedIn(env, { privateMetadata: { k: "PRIVATE_VALUE" } });
    const payload = await verified(env, (await mint(env, "legacy", token)).body.accessToken);
    // Private metadata is not even in the shortcode context, so a template that slipped past validation still cannot read it.
    expect(payload.leak).toBeNull();
    expect(payload.leak2).toBe("x");
    expect(payload.sub).toBe(user.id);
    expect(payload.sid).toBe(session.id);
    expect(payload.env).toBe(env.environmentId);
    expect(payload.azp).toBeUndefined();
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
    expect(payload.role).toBe("kept");
  });

  it("answers 404 for an unknown template and for another environment's template", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    await createTemplate(other, { name: "theirs", claims: {} });
    const { token } = await signedIn(env);
    expectError(await mint(env, "missing", token), 404, "resource_not_found");
    expectError(await mint(env, "theirs", token), 404, "resource_not_found");
    expectError(await mint(env, "__proto__", token), 404, "resource_not_found");
    expectError(await mint(env, "constructor", token), 404, "resource_not_found");
  });

  it("answers 400 for a malformed template name in the path", async () => {
    const env = await newEnvironment();
    const { token } = await signedIn(env);
    for (const name of ["has space", "a".repeat(65), "nul\u0000name", "dot.name"]) {
      expectError(await mint(env, name, token), 400, "invalid_request");
    }
  });

  it("answers 401 without a session and 403 session_pending to a PENDING session", async () => {
    const env = await newEnvironment();
    await createTemplate(env, { name: "gated", claims: { email: "{{user.email}}" } });
    expectError(await mint(env, "gated"), 401, "unauthorized");
    const { user, token } = await signedIn(env);
    await getDb().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
    const res = await mint(env, "gated", token);
    // CONTRACT §4: a PENDING session gets session_pending naming its gate (it was a bare `forbidden`).
    expectError(res, 403, "session_pending");
    expect(res.body.properties.currentGate).toEqual({ key: "EMAIL_VERIFICATION" });
    expect(res.text).not.toContain("accessToken");
  });

  it("refuses a template whose resolved claims would be oversized, instead of minting a huge token", async () => {
    const env = await newEnvironment();
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, "{{user.public_metadata}}"]));
    await createTemplate(env, { name: "amplify", claims: many });
    const { token } = await signedIn(env, { publicMetadata: { pad: "x".repeat(480) } });
    const res = await mint(env, "amplify", token);
    expectError(res, 400, "invalid_request");
    expect(res.body.detail).toMatch(/bytes/);
  });

  it("handles hostile shortcode text quickly and literally", async () => {
    const env = await newEnvironment();
    const hostile = {
      spaces: `{{${" ".repeat(3900)}`,
      braces: "{{{{user.id}}}}",
      empty: "{{}}",
      dots: "{{user..id}}",
      bracket: "{{user['id']}}",
    };
    await createTemplate(env, { name: "hostile", claims: hostile });
    const { user, token } = await signedIn(env);
    const started = Date.now();
    const res = await mint(env, "hostile", token);
    expect(Date.now() - started).toBeLessThan(2000);
    const payload = await verified(env, res.body.accessToken);
    expect(payload.spaces).toBe(hostile.spaces);
    expect(payload.braces).toBe(`{{${user.id}}}`);
    expect(payload.empty).toBeNull();
    expect(payload.dots).toBeNull();
    expect(payload.bracket).toBeNull();
  });

  it("uses the updated claims after a PATCH and stops minting after a DELETE", async () => {
    const env = await newEnvironment();
    const template = await createTemplate(env, { name: "living", claims: { v: 1 } });
    const { token } = await signedIn(env);
    expect((await verified(env, (await mint(env, "living", token)).body.accessToken)).v).toBe(1);
    await env.api.patch(`/jwt-templates/${template.id}`, { claims: { v: 2 } });
    expect((await verified(env, (await mint(env, "living", token)).body.accessToken)).v).toBe(2);
    await env.api.delete(`/jwt-templates/${template.id}`);
    expectError(await mint(env, "living", token), 404, "resource_not_found");
  });
});
