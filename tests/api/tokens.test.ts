import { and, eq, isNull } from "drizzle-orm";
import {
  base64url,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
} from "jose";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { sessions, signingKeys, users } from "@/db/schema";
import { call, type ApiResponse, type ServerApi } from "../helpers/api";
import { newEnvironment, openSession } from "../helpers/fixtures";
import { frontendHostOrigin } from "@/lib/environments/environment-links";

type Environment = Awaited<ReturnType<typeof newEnvironment>>;

let emails = 0;

function expectError(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body.code).toBe(code);
  expect(res.headers.get("cache-control")).toBe("no-store");
}

async function signedIn(env: Environment, body: Record<string, unknown> = {}) {
  emails += 1;
  const res = await env.api.post("/users", { email: `tokens-${emails}-${Date.now()}@example.com`, ...body });
  expect(res.status, res.text).toBe(201);
  const { session, token } = await openSession(env.environmentId, res.body.id);
  return { user: res.body as { id: string }, session, token };
}

function clientHeaders(env: Environment, sessionToken?: string, extra: Record<string, string> = {}) {
  return {
    "x-api-key": env.publishableKey,
    ...(sessionToken ? { cookie: `__gh_session=${sessionToken}` } : {}),
    ...extra,
  };
}

async function refresh(env: Environment, sessionToken?: string, extra: Record<string, string> = {}) {
  return call("POST", "/_svc/auth/token", { headers: clientHeaders(env, sessionToken, extra) });
}

async function jwksOf(env: Environment): Promise<JSONWebKeySet> {
  const res = await call("GET", "/_svc/.well-known/jwks.json", { headers: { "x-api-key": env.publishableKey } });
  expect(res.status, res.text).toBe(200);
  return res.body as JSONWebKeySet;
}

async function issuerOf(env: Environment): Promise<string> {
  const res = await call("GET", "/_svc/.well-known/openid-configuration", { headers: { "x-api-key": env.publishableKey } });
  expect(res.status, res.text).toBe(200);
  return res.body.issuer as string;
}

async function verify(env: Environment, token: string, options: { currentDate?: Date } = {}) {
  return jwtVerify(token, createLocalJWKSet(await jwksOf(env)), {
    issuer: await issuerOf(env),
    algorithms: ["ES256"],
    ...options,
  });
}

async function rotate(api: ServerApi): Promise<string> {
  const res = await api.post("/signing-keys/rotate");
  expect(res.status, res.text).toBe(200);
  return res.body.kid as string;
}

describe("GET /_svc/.well-known/jwks.json", () => {
  it("publishes the environment's public key, cacheable, without private members", async () => {
    const env = await newEnvironment();
    const res = await call("GET", "/_svc/.well-known/jwks.json", { headers: { "x-api-key": env.publishableKey } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.body.keys).toHaveLength(1);
    const [key] = res.body.keys;
    expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(key.kid).toMatch(/^key_/);
    expect(key.d).toBeUndefined();
    expect(res.text).not.toContain('"d"');
  });

  it("resolves the environment by Host as well as by X-API-Key", async () => {
    const env = await newEnvironment();
    const byHost = await call("GET", "/_svc/.well-known/jwks.json", { headers: { host: env.frontendHost } });
    expect(byHost.status, byHost.text).toBe(200);
    expect(byHost.body).toEqual(await jwksOf(env));
  });

  it("keeps each environment's keys apart", async () => {
    const [a, b] = [await newEnvironment(), await newEnvironment()];
    const [keysA, keysB] = [await jwksOf(a), await jwksOf(b)];
    expect(keysA.keys[0]?.kid).not.toBe(keysB.keys[0]?.kid);
  });

  it("answers an unknown key or host with 401 environment_not_found, not cached", async () => {
    expectError(await call("GET", "/_svc/.well-known/jwks.json", { headers: { "x-api-key": "pk_test_nosuchkeynosuchkey00" } }), 401, "environment_not_found");
    expectError(await call("GET", "/_svc/.well-known/jwks.json", { headers: { host: "nowhere.invalid" } }), 401, "environment_not_found");
  });
});

describe("OIDC discovery", () => {
  it("serves the same document at /_svc/.well-known and at the root, cacheable", async () => {
    const env = await newEnvironment();
    const svc = await call("GET", "/_svc/.well-known/openid-configuration", { headers: { host: env.frontendHost } });
    const root = await call("GET", "/.well-known/openid-configuration", { headers: { host: env.frontendHost } });
    for (const res of [svc, root]) {
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    }
    expect(root.body).toEqual(svc.body);
    const byKey = await call("GET", "/.well-known/openid-configuration", { headers: { "x-api-key": env.publishableKey } });
    expect(byKey.body).toEqual(svc.body);
  });

  it("names an issuer on the environment's host whose jwks_uri serves its keys", async () => {
    const env = await newEnvironment();
    const doc = (await call("GET", "/_svc/.well-known/openid-configuration", { headers: { host: env.frontendHost } })).body;
    const issuer = new URL(doc.issuer);
    expect(issuer.hostname).toBe(env.frontendHost);
    expect(issuer.pathname).toBe("/_svc");
    expect(doc.jwks_uri).toBe(`${doc.issuer}/.well-known/jwks.json`);
    expect(doc.id_token_signing_alg_values_supported).toEqual(["ES256"]);
    expect(doc.subject_types_supported).toEqual(["public"]);
    expect(doc.response_types_supported.length).toBeGreaterThan(0);
    expect(doc.claims_supported).toEqual(expect.arrayContaining(["iss", "sub", "sid", "azp", "iat", "nbf", "exp", "env"]));
    const jwksUri = new URL(doc.jwks_uri);
    const keys = await call("GET", jwksUri.pathname, { headers: { host: jwksUri.host } });
    expect(keys.status, keys.text).toBe(200);
    expect(keys.body).toEqual(await jwksOf(env));
  });

  it("answers an unknown environment with 401 at both paths", async () => {
    for (const path of ["/_svc/.well-known/openid-configuration", "/.well-known/openid-configuration"]) {
      expectError(await call("GET", path, { headers: { host: "nowhere.invalid" } }), 401, "environment_not_found");
    }
  });
});

describe("POST /_svc/auth/token", () => {
  it("returns a token that verifies against the JWKS with the discovery issuer and carries every standard claim", async () => {
    const env = await newEnvironment();
    const { user, session, token } = await signedIn(env);
    const res = await refresh(env, token);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const { payload, protectedHeader } = await verify(env, res.body.accessToken);
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "JWT" });
    expect(protectedHeader.kid).toBe((await jwksOf(env)).keys[0]?.kid);
    expect(payload.iss).toBe(await issuerOf(env));
    expect(payload.sub).toBe(user.id);
    expect(payload.sid).toBe(session.id);
    expect(payload.env).toBe(env.environmentId);
    expect(payload.azp).toBeUndefined();
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs((payload.iat ?? 0) - now)).toBeLessThanOrEqual(5);
    expect(payload.nbf).toBe(payload.iat);
    expect(payload.exp).toBe((payload.iat ?? 0) + 60);
    expect(new Date(res.body.expiresAt).getTime()).toBe((payload.exp ?? 0) * 1000);
  });

  it("sets azp to the request's Origin when the browser sends one", async () => {
    const env = await newEnvironment();
    const { token } = await signedIn(env);
    // The frontend host's own origin: PUBLIC_URL's scheme, and its port when the host names none.
    const origin = frontendHostOrigin(env.frontendHost);
    const res = await refresh(env, token, { origin });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect((await verify(env, res.body.accessToken)).payload.azp).toBe(origin);
  });

  it("refuses a foreign Origin with 403 origin_not_allowed", async () => {
    const env = await newEnvironment();
    const { token } = await signedIn(env);
    expectError(await refresh(env, token, { origin: "https://evil.example" }), 403, "origin_not_allowed");
  });

  it("answers 401 without a session, with a malformed or unknown token, and with another environment's session", async () => {
    const env = await newEnvironment();
    const other = await newEnvironment();
    const { token: otherToken } = await signedIn(other);
    expectError(await refresh(env), 401, "unauthorized");
    expectError(await refresh(env, "not-a-session-token"), 401, "unauthorized");
    expectError(await refresh(env, "A".repeat(43)), 401, "unauthorized");
    expectError(await refresh(env, otherToken), 401, "unauthorized");
  });

  it("answers 401 once the session is revoked or expired", async () => {
    const env = await newEnvironment();
    const revoked = await signedIn(env);
    expect((await refresh(env, revoked.token)).status).toBe(200);
    const res = await env.api.delete(`/users/${revoked.user.id}/sessions/${revoked.session.id}`);
    expect(res.status, res.text).toBe(204);
    expectError(await refresh(env, revoked.token), 401, "unauthorized");

    const expired = await signedIn(env);
    await getDb().update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, expired.session.id));
    expectError(await refresh(env, expired.token), 401, "unauthorized");
  });

  it("answers 403 session_pending with the gate to a PENDING session (email not yet verified)", async () => {
    const env = await newEnvironment();
    const { user, token } = await signedIn(env);
    await getDb().update(users).set({ emailVerifiedAt: null }).where(eq(users.id, user.id));
    const res = await refresh(env, token);
    // CONTRACT §4: session_pending with properties.currentGate (it was a bare `forbidden`).
    expectError(res, 403, "session_pending");
    expect(res.body.properties.currentGate).toEqual({ key: "EMAIL_VERIFICATION" });
    expect(res.body.detail).toMatch(/pending/i);
    expect(res.text).not.toContain("accessToken");
  });

  it("uses the environment's token lifetime, and the token fails verification once expired", async () => {
    const env = await newEnvironment();
    const patched = await env.api.patch("/environment", { sessions: { tokenLifetimeSeconds: 30 } });
    expect(patched.status, patched.text).toBe(200);
    const { token } = await signedIn(env);
    const accessToken = (await refresh(env, token)).body.accessToken as string;
    const { payload } = await verify(env, accessToken);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(30);
    const afterExpiry = new Date(((payload.exp ?? 0) + 1) * 1000);
    await expect(verify(env, accessToken, { currentDate: afterExpiry })).rejects.toMatchObject({ code: "ERR_JWT_EXPIRED" });
  });
});

describe("tampered and foreign tokens", () => {
  async function genuine() {
    const env = await newEnvironment();
    const { token } = await signedIn(env);
    const accessToken = (await refresh(env, token)).body.accessToken as string;
    return { env, accessToken };
  }

  it("rejects alg: none", async () => {
    const { env, accessToken } = await genuine();
    const { kid } = decodeProtectedHeader(accessToken);
    const header = base64url.encode(JSON.stringify({ alg: "none", typ: "JWT", kid }));
    const body = accessToken.split(".")[1];
    await expect(verify(env, `${header}.${body}.`)).rejects.toThrow();
  });

  it("rejects a token whose payload was edited", async () => {
    const { env, accessToken } = await genuine();
    const [header, body, signature] = accessToken.split(".");
    const forged = base64url.encode(JSON.stringify({ ...decodeJwt(accessToken), sub: "someone-else" }));
    expect(forged).not.toBe(body);
    await expect(verify(env, `${header}.${forged}.${signature}`)).rejects.toMatchObject({ code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
  });

  it("rejects a token signed by another environment's key", async () => {
    const { env } = await genuine();
    const { accessToken: foreign } = await genuine();
    await expect(verify(env, foreign)).rejects.toThrow();
  });

  it("rejects a token signed by a fresh key that claims the environment's kid and issuer", async () => {
    const { env, accessToken } = await genuine();
    const { privateKey } = await generateKeyPair("ES256");
    const forged = await new SignJWT(decodeJwt(accessToken))
      .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: decodeProtectedHeader(accessToken).kid })
      .sign(privateKey);
    await expect(verify(env, forged)).rejects.toMatchObject({ code: "ERR_JWS_SIGNATURE_VERIFICATION_FAILED" });
  });

  it("rejects an HS256 token keyed with the published public key (algorithm confusion)", async () => {
    const { env, accessToken } = await genuine();
    const jwk = (await jwksOf(env)).keys[0];
    const secret = new TextEncoder().encode(JSON.stringify(jwk));
    const forged = await new SignJWT(decodeJwt(accessToken))
      .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: jwk?.kid })
      .sign(secret);
    await expect(verify(env, forged)).rejects.toThrow();
  });
});

describe("signing key rotation", () => {
  it("POST /api/server/v1/signing-keys/rotate: new tokens carry the new kid and the old key stays published", async () => {
    const env = await newEnvironment();
    const { token } = await signedIn(env);
    const before = (await refresh(env, token)).body.accessToken as string;
    const oldKid = decodeProtectedHeader(before).kid;

    const newKid = await rotate(env.api);
    expect(newKid).not.toBe(oldKid);
    const jwks = await jwksOf(env);
    expect(jwks.keys.map((key) => key.kid)).toEqual([newKid, oldKid]);

    const after = (await refresh(env, token)).body.accessToken as string;
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    await expect(verify(env, after)).resolves.toBeTruthy();
    await expect(verify(env, before)).resolves.toBeTruthy();
  });

  it("drops a retired key from the JWKS once every token it signed has expired", async () => {
    const env = await newEnvironment();
    const oldKid = (await jwksOf(env)).keys[0]?.kid ?? "";
    const newKid = await rotate(env.api);
    const dayAndASecondAgo = new Date(Date.now() - (86_400 + 1) * 1000);
    await getDb().update(signingKeys).set({ retiredAt: dayAndASecondAgo }).where(eq(signingKeys.id, oldKid));
    expect((await jwksOf(env)).keys.map((key) => key.kid)).toEqual([newKid]);
  });

  it("leaves exactly one current key after concurrent rotations", async () => {
    const env = await newEnvironment();
    const kids = await Promise.all([rotate(env.api), rotate(env.api), rotate(env.api)]);
    expect(new Set(kids).size).toBe(3);
    const current = await getDb()
      .select({ kid: signingKeys.id })
      .from(signingKeys)
      .where(and(eq(signingKeys.environmentId, env.environmentId), isNull(signingKeys.retiredAt)));
    expect(current).toHaveLength(1);
    expect(kids).toContain(current[0]?.kid);
    expect((await jwksOf(env)).keys).toHaveLength(4);
  });

  it("rotates only the caller's environment", async () => {
    const [a, b] = [await newEnvironment(), await newEnvironment()];
    const kidB = (await jwksOf(b)).keys[0]?.kid;
    await rotate(a.api);
    expect((await jwksOf(b)).keys.map((key) => key.kid)).toEqual([kidB]);
  });

  it("requires a secret key", async () => {
    expectError(await call("POST", "/api/server/v1/signing-keys/rotate"), 401, "unauthorized");
    expectError(
      await call("POST", "/api/server/v1/signing-keys/rotate", { headers: { authorization: "Bearer sk_test_wrong" } }),
      401,
      "unauthorized",
    );
  });

  it("keeps public JWKs free of private material after rotation", async () => {
    const env = await newEnvironment();
    await rotate(env.api);
    for (const key of (await jwksOf(env)).keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "use", "x", "y"]);
    }
  });
});
