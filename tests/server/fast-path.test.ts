import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { createEnvironment, type CreatedEnvironment } from "@/lib/environments/create-environment";
import { createFastPath, fastPathPathname } from "@/lib/server/fast-path";
import { toWebRequest } from "@/lib/server/node-request";
import { sendWebResponse } from "@/lib/server/node-response";
import { serverApi } from "../helpers/api";

/**
 * The fast path in-process, on real sockets: the real route handlers behind it and a
 * stand-in for Next.js that answers 418, so every test can tell who answered.
 */
async function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const close = (server: http.Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

describe("fastPathPathname", () => {
  it("takes API URLs and leaves pages and anything Next.js would normalise to Next", () => {
    expect(fastPathPathname("/_svc/client?x=1")).toBe("/_svc/client");
    expect(fastPathPathname("/api/server/v1/users")).toBe("/api/server/v1/users");
    expect(fastPathPathname("/api/openapi.json")).toBe("/api/openapi.json");
    expect(fastPathPathname("/.well-known/openid-configuration")).toBe("/.well-known/openid-configuration");
    for (const url of ["/", "/sign-in", "/api/reference", "/_svc/client/", "//_svc/client", "/_svc//client", "/_svc\\client", "/_next/static/x.js"]) {
      expect(fastPathPathname(url), url).toBeNull();
    }
  });
});

describe("the fast path in front of the real route handlers", () => {
  let environment: CreatedEnvironment;
  let server: http.Server;
  let url: string;
  const nextCalls: string[] = [];
  const forwardedSeenByNext: string[] = [];

  beforeAll(async () => {
    environment = await createEnvironment(getDb(), { name: "Fast path" });
    let port = 0;
    ({ server, url } = await listen(
      createFastPath({
        next: async (req, res) => {
          nextCalls.push(`${req.method} ${req.url}`);
          forwardedSeenByNext.push(String(req.headers["x-forwarded-for"]));
          if (req.url === "/explode") throw new Error("next blew up");
          res.writeHead(418).end("next");
        },
        port: () => port,
      }),
    ));
    port = Number(new URL(url).port);
  });
  afterAll(() => close(server));

  const client = () => ({ "x-api-key": environment.publishableKey });

  it("answers the boot probe itself, in one write with a Content-Length", async () => {
    const response = await request(`${url}/_svc/client`, { headers: client() });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-length"]).toBeDefined();
    expect(await response.body.json()).toMatchObject({ authenticated: false, user: null });
  });

  it("keeps each Set-Cookie on its own header line and the session works on the next request", async () => {
    const email = "fast@example.com";
    const password = "fast path: correct horse battery staple";
    expect((await serverApi(environment.secretKey).post("/users", { email, password })).status).toBe(201);
    const login = await request(`${url}/_svc/auth/login`, {
      method: "POST",
      headers: { ...client(), "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    await login.body.text();
    expect(login.statusCode).toBe(200);
    const cookies = login.headers["set-cookie"] as string[];
    expect(cookies.map((cookie) => cookie.split("=")[0])).toEqual(["__gh_session", "__gh_session_hint"]);
    const cookie = cookies[0]?.split(";")[0] ?? "";
    const probe = await request(`${url}/_svc/client`, { headers: { ...client(), cookie } });
    expect(((await probe.body.json()) as { authenticated: boolean }).authenticated).toBe(true);
  });

  it("answers HEAD with the GET handler's headers and no body", async () => {
    const response = await request(`${url}/_svc/client`, { method: "HEAD", headers: client() });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/json");
    expect(await response.body.text()).toBe("");
  });

  it("refuses a chunked body over 64 KiB with 413, closes that connection, and keeps serving", async () => {
    const chunk = Buffer.alloc(16 * 1024, "a");
    async function* endless() {
      yield Buffer.from('{"email":"');
      for (let i = 0; i < 64; i++) yield chunk; // 1 MiB, far past the limit
    }
    const response = await request(`${url}/_svc/auth/login`, {
      method: "POST",
      headers: { ...client(), "content-type": "application/json" },
      body: Readable.from(endless()),
    }).catch((error: unknown) => error as Error);
    // The server may close before the client has sent everything; when the answer arrives it must be the 413.
    if (!(response instanceof Error)) {
      expect(response.statusCode).toBe(413);
      expect(response.headers.connection).toBe("close");
      expect(((await response.body.json()) as { code: string }).code).toBe("payload_too_large");
    }
    expect((await request(`${url}/_svc/client`, { headers: client() })).statusCode).toBe(200);
  });

  it("answers a path that is not valid percent-encoding with 400, not 500", async () => {
    const response = await request(`${url}/_svc/users/me/sessions/%E0`, { method: "DELETE", headers: client() });
    expect(response.statusCode).toBe(400);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(((await response.body.json()) as { code: string }).code).toBe("invalid_request");
  });

  it("hands pages and URLs to normalise to Next.js", async () => {
    nextCalls.length = 0;
    for (const [method, path] of [["GET", "/sign-in"], ["GET", "/_svc/client/"]] as const) {
      const response = await request(`${url}${path}`, { method });
      expect(response.statusCode, `${method} ${path}`).toBe(418);
      await response.body.text();
    }
    expect(nextCalls).toEqual(["GET /sign-in", "GET /_svc/client/"]);
  });

  it("regression: answers a method the route does not support itself, 405 problem+json with Allow (Next.js sent an empty 405)", async () => {
    nextCalls.length = 0;
    const cases = [
      ["PUT", "/_svc/client", "GET, HEAD, OPTIONS"],
      ["DELETE", "/api/server/v1/users", "POST, OPTIONS"],
      ["PROPFIND", "/api/server/v1/users/00000000-0000-4000-8000-000000000000", "GET, HEAD, PATCH, DELETE, OPTIONS"],
      ["POST", "/.well-known/openid-configuration", "GET, HEAD, OPTIONS"],
    ] as const;
    for (const [method, path, allow] of cases) {
      const response = await request(`${url}${path}`, { method, headers: client() });
      const body = (await response.body.json()) as { code: string; status: number };
      expect(response.statusCode, `${method} ${path}`).toBe(405);
      expect(response.headers["content-type"]).toBe("application/problem+json");
      expect(response.headers.allow, `${method} ${path}`).toBe(allow);
      expect(body).toMatchObject({ code: "method_not_allowed", status: 405 });
    }
    const options = await request(`${url}/api/server/v1/users`, { method: "OPTIONS" });
    await options.body.text();
    expect(options.statusCode).toBe(204);
    expect(options.headers.allow).toBe("POST, OPTIONS");
    expect(nextCalls).toEqual([]);
  });

  it("regression: a client's own X-Forwarded-For never replaces the socket address, for the API and for Next.js", async () => {
    const email = "spoof@example.com";
    const password = "fast path: correct horse battery staple";
    const created = await serverApi(environment.secretKey).post("/users", { email, password });
    const login = await request(`${url}/_svc/auth/login`, {
      method: "POST",
      headers: { ...client(), "content-type": "application/json", "x-forwarded-for": "203.0.113.66" },
      body: JSON.stringify({ email, password }),
    });
    expect(login.statusCode, await login.body.text()).toBe(200);
    const listed = await serverApi(environment.secretKey).get(`/users/${created.body.id}/sessions`);
    expect(listed.body.items.map((session: { ipAddress: string }) => session.ipAddress)).toEqual(["127.0.0.1"]);

    nextCalls.length = 0;
    forwardedSeenByNext.length = 0;
    await (await request(`${url}/sign-in`, { headers: { "x-forwarded-for": "203.0.113.66" } })).body.text();
    expect(forwardedSeenByNext).toEqual(["203.0.113.66, 127.0.0.1"]);
  });

  it("turns a failure outside any handler into a 500 problem+json with a request id, and stays up", async () => {
    const response = await request(`${url}/explode`);
    expect(response.statusCode).toBe(500);
    const body = (await response.body.json()) as { code: string; requestId: string; detail: string };
    expect(body.code).toBe("internal_error");
    expect(body.detail).toContain(body.requestId);
    expect(body.detail).not.toContain("blew up");
    expect((await request(`${url}/_svc/client`, { headers: client() })).statusCode).toBe(200);
  });
});

describe("Node ↔ Web conversion", () => {
  it("fills x-forwarded-host/proto/port only when absent, like Next.js, and always appends the socket to x-forwarded-for", async () => {
    const seen: Record<string, string | null>[] = [];
    const { server, url } = await listen((req, res) => {
      const web = toWebRequest(req, 4321, new AbortController().signal);
      seen.push({
        url: web.url,
        for: web.headers.get("x-forwarded-for"),
        host: web.headers.get("x-forwarded-host"),
        proto: web.headers.get("x-forwarded-proto"),
        port: web.headers.get("x-forwarded-port"),
        cookie: web.headers.get("cookie"),
      });
      res.end();
    });
    try {
      await (await request(`${url}/a?b=1`, { headers: { cookie: "x=1" } })).body.text();
      await (await request(`${url}/a`, { headers: { "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" } })).body.text();
    } finally {
      await close(server);
    }
    expect(seen[0]).toMatchObject({ url: "http://localhost:4321/a?b=1", for: expect.stringMatching(/127\.0\.0\.1$/), proto: "http", port: "4321", cookie: "x=1" });
    expect(seen[0]?.host).toMatch(/^127\.0\.0\.1:\d+$/);
    // Regression: the client's own X-Forwarded-For used to reach the handler as the whole chain, socket lost.
    expect(seen[1]).toMatchObject({ url: "https://localhost:4321/a", for: "203.0.113.9, 127.0.0.1", proto: "https" });
  });

  it("streams a body that is not complete at once", async () => {
    const { server, url } = await listen((_req, res) => {
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (sent++ < 3) controller.enqueue(new TextEncoder().encode(`part${sent};`));
          else controller.close();
        },
      });
      void sendWebResponse(res, new Response(body, { headers: { "content-type": "text/plain" } }), { head: false, close: false });
    });
    try {
      const response = await request(url);
      expect(response.headers["transfer-encoding"]).toBe("chunked");
      expect(await response.body.text()).toBe("part1;part2;part3;");
    } finally {
      await close(server);
    }
  });
});
