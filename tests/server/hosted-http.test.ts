import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createEnvironment, type CreatedEnvironment } from "@/lib/environments/create-environment";
import { buildState, runNextBuild } from "@/lib/server/build";
import { freePort, startServerProcess, type ServerKind, type ServerProcess } from "@/lib/server/server-process";

/**
 * Issue 7 over real HTTP, on both ways Gatehouse is served: a bare `next start` (route
 * handlers and pages through Next.js, its proxy, its instrumentation) and the
 * production server `npm start` runs (API through the fast path, pages through
 * Next.js). Headers that depend on the environment, 405s and the client IP are decided
 * by different code on each, so each is checked on both.
 */
const postgres = Boolean(process.env.DATABASE_URL);
if (!postgres) {
  console.warn(
    "\n!!! SKIPPED tests/server/hosted-http.test.ts: it needs PostgreSQL (set TEST_DATABASE_URL). " +
      "The embedded PGlite database belongs to one process, so the servers cannot share it with the test.\n",
  );
}

interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

async function send(server: ServerProcess, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<HttpResult> {
  const response = await request(`${server.baseUrl}${path}`, {
    method: method as "GET",
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.body.text();
  const json = /json/.test(String(response.headers["content-type"] ?? "")) && text ? JSON.parse(text) : text;
  return { status: response.statusCode, headers: response.headers, body: json };
}

const KINDS: ServerKind[] = ["next-start", "fast-path"];

describe.skipIf(!postgres)("hosted pages and the API over real HTTP", () => {
  const servers = new Map<ServerKind, ServerProcess>();
  let strict: CreatedEnvironment;
  let sameOrigin: CreatedEnvironment;
  let embeddable: CreatedEnvironment;
  const password = "hosted http: correct horse battery staple";

  beforeAll(async () => {
    if (buildState() !== "fresh") {
      console.info("hosted-http: building the app for the servers…");
      expect(runNextBuild({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" }), "`next build` failed (output above)").toBe(true);
    }
    const suffix = Math.random().toString(36).slice(2, 8);
    strict = await createEnvironment(getDb(), { name: "Strict", frontendHost: `strict-${suffix}.localhost` });
    sameOrigin = await createEnvironment(getDb(), { name: "Same origin" });
    embeddable = await createEnvironment(getDb(), { name: "Embeddable" });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: "1",
      GATEHOUSE_MODE: "development",
      DATABASE_URL: process.env.DATABASE_URL,
      GATEHOUSE_SECRET: process.env.GATEHOUSE_SECRET,
    };
    delete env.TRUSTED_PROXY_HOPS;
    const started = await Promise.allSettled(KINDS.map(async (kind) => startServerProcess({ kind, port: await freePort(), env })));
    started.forEach((result, i) => {
      if (result.status === "fulfilled") servers.set(KINDS[i] ?? "fast-path", result.value);
    });
    for (const result of started) if (result.status === "rejected") throw result.reason;

    const anyServer = servers.get("fast-path");
    if (!anyServer) throw new Error("no server");
    const patch = (target: CreatedEnvironment, frameAncestors: string[]) =>
      send(anyServer, "PATCH", "/api/server/v1/environment", { authorization: `Bearer ${target.secretKey}` }, { security: { frameAncestors } });
    expect((await patch(sameOrigin, ["'self'"])).status).toBe(200);
    expect((await patch(embeddable, ["'self'", "https://app.example.com"])).status).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
  });

  const server = (kind: ServerKind) => {
    const found = servers.get(kind);
    if (!found) throw new Error(`${kind} server not started`);
    return found;
  };

  describe.each(KINDS)("%s", (kind) => {
    it("regression: hosted pages refuse to be framed: CSP frame-ancestors 'none' and X-Frame-Options DENY by default", async () => {
      const byKey = await send(server(kind), "GET", `/sign-in?pk=${strict.publishableKey}`);
      expect(byKey.status).toBe(200);
      expect(byKey.headers["content-security-policy"]).toBe("frame-ancestors 'none'");
      expect(byKey.headers["x-frame-options"]).toBe("DENY");
      const byHost = await send(server(kind), "GET", "/sign-up", { host: `${strict.frontendHost}:${server(kind).port}` });
      expect(byHost.status).toBe(200);
      expect(byHost.headers["content-security-policy"]).toBe("frame-ancestors 'none'");
      // A host that names no environment gets the 404 page, just as unframeable.
      const unknown = await send(server(kind), "GET", "/sign-in", { host: "nobody.invalid" });
      expect(unknown.status).toBe(404);
      expect(unknown.headers["x-frame-options"]).toBe("DENY");
    });

    it("follows the environment's security.frameAncestors", async () => {
      const self = await send(server(kind), "GET", `/sign-in?pk=${sameOrigin.publishableKey}`);
      expect(self.headers["content-security-policy"]).toBe("frame-ancestors 'self'");
      expect(self.headers["x-frame-options"]).toBe("SAMEORIGIN");
      const listed = await send(server(kind), "GET", `/forgot-password?pk=${embeddable.publishableKey}`);
      expect(listed.headers["content-security-policy"]).toBe("frame-ancestors 'self' https://app.example.com");
      expect(listed.headers["x-frame-options"]).toBeUndefined();
    });

    it("regression: a GET-only page answers PUT, PATCH and DELETE with 405 problem+json and Allow", async () => {
      for (const method of ["PUT", "PATCH", "DELETE"]) {
        const res = await send(server(kind), method, `/sign-in?pk=${strict.publishableKey}`);
        expect(res.status, `${method} /sign-in`).toBe(405);
        expect(res.headers["content-type"]).toBe("application/problem+json");
        expect(res.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
        expect(res.body.code).toBe("method_not_allowed");
      }
      const options = await send(server(kind), "OPTIONS", "/sign-in");
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
    });

    it("regression: route handlers answer an unsupported method with 405 problem+json and Allow, not an empty 405", async () => {
      const cases = [
        ["PUT", "/_svc/client", "GET, HEAD, OPTIONS"],
        ["DELETE", "/api/server/v1/users", "POST, OPTIONS"],
        ["POST", "/.well-known/openid-configuration", "GET, HEAD, OPTIONS"],
        ["PATCH", "/api/openapi.json", "GET, HEAD, OPTIONS"],
      ] as const;
      for (const [method, path, allow] of cases) {
        const res = await send(server(kind), method, path, { "x-api-key": strict.publishableKey });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers["content-type"], `${method} ${path}`).toBe("application/problem+json");
        expect(res.headers.allow, `${method} ${path}`).toBe(allow);
        expect(res.body.code).toBe("method_not_allowed");
      }
      const options = await send(server(kind), "OPTIONS", "/api/server/v1/users");
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe("POST, OPTIONS");
      // API answers are not pages: no framing policy of the hosted pages.
      expect((await send(server(kind), "GET", "/_svc/client", { "x-api-key": strict.publishableKey })).headers["x-frame-options"]).toBeUndefined();
    });

    it("regression: a client's own X-Forwarded-For does not become the session's IP", async () => {
      const email = `${kind}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const created = await send(server(kind), "POST", "/api/server/v1/users", { authorization: `Bearer ${strict.secretKey}` }, { email, password });
      expect(created.status).toBe(201);
      const login = await send(server(kind), "POST", "/_svc/auth/login", { "x-api-key": strict.publishableKey, "x-forwarded-for": "203.0.113.66" }, { email, password });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      const sessions = await send(server(kind), "GET", `/api/server/v1/users/${created.body.id}/sessions`, { authorization: `Bearer ${strict.secretKey}` });
      expect(sessions.body.items.map((session: { ipAddress: string }) => session.ipAddress)).toEqual(["127.0.0.1"]);
    });

    it("serves the dev mailbox on loopback, and public documents vary on Host and X-API-Key", async () => {
      expect((await send(server(kind), "GET", "/dev/mailbox/messages")).status).toBe(200);
      expect((await send(server(kind), "GET", "/dev/mailbox")).status).toBe(200);
      // Regression: a reverse proxy on this host (loopback socket, TRUSTED_PROXY_HOPS unset) names the client or the public host.
      const proxied: Record<string, string>[] = [{ "x-forwarded-for": "203.0.113.5" }, { host: "auth.example.com" }];
      for (const headers of proxied) {
        expect((await send(server(kind), "GET", "/dev/mailbox/messages", headers)).status, JSON.stringify(headers)).toBe(404);
        expect((await send(server(kind), "GET", "/dev/mailbox", headers)).status, JSON.stringify(headers)).toBe(404);
      }
      const discovery = await send(server(kind), "GET", "/.well-known/openid-configuration", { "x-api-key": strict.publishableKey });
      expect(discovery.status).toBe(200);
      const vary = [discovery.headers.vary].flat().join(",").toLowerCase();
      for (const name of ["host", "x-api-key", "origin"]) expect(vary).toContain(name);
    });
  });
});
