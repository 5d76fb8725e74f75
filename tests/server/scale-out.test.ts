import { randomBytes } from "node:crypto";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createEnvironment, type CreatedEnvironment } from "@/lib/environments/create-environment";
import { buildState, runNextBuild } from "@/lib/server/build";
import { freePort, startServerProcess, type ServerProcess } from "@/lib/server/server-process";

/**
 * Scale-out: two production server processes (what `npm start` runs) on one Postgres
 * database must behave as one service. Nothing that decides who is signed in or how
 * often they may try may live in a process's memory: a session revoked on A is dead
 * on B at once, and rate-limit counters are shared.
 */
const postgres = Boolean(process.env.DATABASE_URL);
if (!postgres) {
  console.warn(
    "\n!!! SKIPPED tests/server/scale-out.test.ts: it needs PostgreSQL (set TEST_DATABASE_URL). " +
      "The embedded PGlite database belongs to one process, so two servers cannot share it.\n",
  );
}

interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

async function send(server: ServerProcess, method: "GET" | "POST" | "DELETE", path: string, headers: Record<string, string>, body?: unknown): Promise<HttpResult> {
  const response = await request(`${server.baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  const json = /json/.test(String(response.headers["content-type"] ?? "")) && text ? JSON.parse(text) : text;
  return { status: response.statusCode, headers: response.headers, body: json };
}

function sessionCookie(result: HttpResult): string {
  const setCookie = result.headers["set-cookie"];
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = cookies.find((cookie) => cookie.startsWith("__gh_session="));
  if (!session) throw new Error(`no session cookie in ${JSON.stringify(result.headers)}`);
  return session.split(";")[0] ?? "";
}

describe.skipIf(!postgres)("two production servers on one Postgres database", () => {
  const password = "scale-out: correct horse battery staple";
  let environment: CreatedEnvironment;
  let a: ServerProcess | undefined;
  let b: ServerProcess | undefined;

  const servers = () => {
    if (!a || !b) throw new Error("servers not started");
    return { a, b };
  };
  const client = () => ({ "x-api-key": environment.publishableKey });
  const secret = () => ({ authorization: `Bearer ${environment.secretKey}` });

  beforeAll(async () => {
    if (buildState() !== "fresh") {
      console.info("scale-out: building the app for the production servers…");
      expect(runNextBuild({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" }), "`next build` failed (output above)").toBe(true);
    }
    // Migrations are already applied to this file's database; the environment is made here, in the test process.
    environment = await createEnvironment(getDb(), { name: "Scale-out" });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      GATEHOUSE_MODE: "development",
      // The test stands in for one reverse proxy: the address it sends is the client's.
      TRUSTED_PROXY_HOPS: "1",
      DATABASE_URL: process.env.DATABASE_URL,
      GATEHOUSE_SECRET: process.env.GATEHOUSE_SECRET, // the key that sealed the environment's signing key
    };
    const start = async () => startServerProcess({ kind: "fast-path", port: await freePort(), env });
    const [first, second] = await Promise.allSettled([start(), start()]);
    a = first.status === "fulfilled" ? first.value : undefined;
    b = second.status === "fulfilled" ? second.value : undefined;
    for (const result of [first, second]) if (result.status === "rejected") throw result.reason;
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  async function createUser(): Promise<{ id: string; email: string }> {
    const email = `scale-${randomBytes(4).toString("hex")}@example.com`;
    const created = await send(servers().a, "POST", "/api/server/v1/users", secret(), { email, password });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { id: created.body.id, email };
  }

  it("a session signed in on A is live on B, and logging out on A kills it on B at once", async () => {
    const { a, b } = servers();
    const user = await createUser();
    const login = await send(a, "POST", "/_svc/auth/login", client(), { email: user.email, password });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const cookie = sessionCookie(login);

    const probe = await send(b, "GET", "/_svc/client", { ...client(), cookie });
    expect(probe.status).toBe(200);
    expect(probe.body.authenticated).toBe(true);
    expect(probe.body.user.user.id).toBe(user.id);
    expect((await send(b, "GET", "/_svc/users/me", { ...client(), cookie })).status).toBe(200);

    const logout = await send(a, "POST", "/_svc/auth/logout", { ...client(), cookie });
    expect(logout.status, JSON.stringify(logout.body)).toBe(200);

    const after = await send(b, "GET", "/_svc/client", { ...client(), cookie });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ authenticated: false, user: null });
    const me = await send(b, "GET", "/_svc/users/me", { ...client(), cookie });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe("unauthorized");
  });

  it("a session signed in on B and revoked through the Server API on A is refused by B at once", async () => {
    const { a, b } = servers();
    const user = await createUser();
    const login = await send(b, "POST", "/_svc/auth/login", client(), { email: user.email, password });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const cookie = sessionCookie(login);
    expect((await send(a, "GET", "/_svc/client", { ...client(), cookie })).body.authenticated).toBe(true);

    const revoke = await send(a, "DELETE", `/api/server/v1/users/${user.id}/sessions`, secret());
    expect(revoke.status, JSON.stringify(revoke.body)).toBeLessThan(300);

    expect((await send(b, "GET", "/_svc/client", { ...client(), cookie })).body.authenticated).toBe(false);
    expect((await send(b, "GET", "/_svc/users/me", { ...client(), cookie })).status).toBe(401);
  });

  it("rate-limit counters are shared: 5 failed logins alternating A and B from one address, then 429 on either", async () => {
    const { a, b } = servers();
    // A documentation address of its own (RFC 5737), and a new unknown email per try,
    // so only the per-address counter can trip, not a per-email or per-account one.
    const address = `203.0.113.${1 + (randomBytes(1)[0] ?? 0) % 254}`;
    const attempt = (server: ServerProcess) =>
      send(server, "POST", "/_svc/auth/login", { ...client(), "x-forwarded-for": address }, {
        email: `nobody-${randomBytes(4).toString("hex")}@example.com`,
        password: "not the password at all",
      });

    for (let i = 0; i < 5; i++) {
      const failed = await attempt(i % 2 === 0 ? a : b);
      expect(failed.status, `attempt ${i + 1}: ${JSON.stringify(failed.body)}`).toBe(401);
      expect(failed.body.code).toBe("invalid_credentials");
    }
    for (const server of [b, a]) {
      const limited = await attempt(server);
      expect(limited.status, `${server.port}: ${JSON.stringify(limited.body)}`).toBe(429);
      expect(limited.body.code).toBe("rate_limited");
      expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    }
  });
});
