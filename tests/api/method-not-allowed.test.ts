import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { isUnsupportedMethodHandler, ROUTE_METHODS } from "@/lib/http/method-not-allowed";
import { call, expectProblem } from "../helpers/api";
import { newEnvironment } from "../helpers/fixtures";

const APP = path.resolve(import.meta.dirname, "../../app");
const SAMPLE_ID = "00000000-0000-4000-8000-000000000000";

/** Each route file with a concrete URL (parameters filled with an id) and the methods its own handlers serve. */
function routes(dir = APP): { file: string; url: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routes(full);
    if (entry.name !== "route.ts" || full.includes("[...")) return [];
    const segments = path.relative(APP, path.dirname(full)).split(path.sep).filter((segment) => !/^\(.*\)$/.test(segment));
    const url = `/${segments.map((segment) => (/^\[\w+\]$/.test(segment) ? SAMPLE_ID : decodeURIComponent(segment))).join("/")}`;
    return [{ file: full, url }];
  });
}

async function supportedMethods(file: string): Promise<string[]> {
  const exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  return ROUTE_METHODS.filter((method) => method !== "OPTIONS" && exported[method] && !isUnsupportedMethodHandler(exported[method]));
}

describe("unsupported methods (CONTRACT §4: 405 method_not_allowed with Allow)", () => {
  it.each(routes().map((route) => [route.url, route] as const))(
    "regression: every other method on %s answers 405 problem+json with Allow",
    async (_url, route) => {
      const { publishableKey, secretKey } = await newEnvironment();
      const supported = await supportedMethods(route.file);
      const allow = [...ROUTE_METHODS.filter((method) => supported.includes(method) || (method === "HEAD" && supported.includes("GET"))), "OPTIONS"].join(", ");
      const headers = { "x-api-key": publishableKey, authorization: `Bearer ${secretKey}` };
      const unsupported = ROUTE_METHODS.filter((name) => name !== "OPTIONS" && !supported.includes(name) && !(name === "HEAD" && supported.includes("GET")));
      for (const method of [...unsupported, "PROPFIND"]) {
        const res = await call(method, route.url, { headers });
        expectProblem(res, 405, "method_not_allowed");
        expect(res.headers.get("allow"), `${method} ${route.url}`).toBe(allow);
        expect(res.body.detail).toContain(allow);
      }
    },
  );

  it("a Server API route answers OPTIONS 204 with Allow; a Client API route keeps its CORS preflight", async () => {
    const server = await call("OPTIONS", "/api/server/v1/users");
    expect(server.status).toBe(204);
    expect(server.headers.get("allow")).toBe("POST, OPTIONS");
    const { publishableKey, api } = await newEnvironment();
    await api.put("/allowed-origins", { origins: ["https://app.example.com"] });
    const preflight = await call("OPTIONS", "/_svc/auth/login", { headers: { "x-api-key": publishableKey, origin: "https://app.example.com" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
  });

  it("an unknown path stays 404, whatever the method", async () => {
    for (const method of ["GET", "PUT", "OPTIONS", "PROPFIND"]) {
      expectProblem(await call(method, "/_svc/no/such/operation"), 404, "resource_not_found");
      expectProblem(await call(method, "/api/server/v1/no-such-resource"), 404, "resource_not_found");
    }
  });
});
