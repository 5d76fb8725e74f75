import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROUTE_METHODS } from "@/lib/http/method-not-allowed";

/** Every `route.ts` under app/, as Next.js mounts them. */
function routeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

describe("route files", () => {
  const app = path.resolve(import.meta.dirname, "../../../app");

  // Next.js answers a method a route file does not export with an empty 405 (and
  // OPTIONS with an Allow header built from the exports): every file therefore exports
  // every method, the ones it does not support through unsupportedMethods().
  it.each(routeFiles(app).map((file) => [path.relative(app, file)]))("%s exports a handler for every method", async (file) => {
    const exported = (await import(pathToFileURL(path.join(app, file)).href)) as Record<string, unknown>;
    const missing = ROUTE_METHODS.filter((method) => typeof exported[method] !== "function" && !(method === "HEAD" && exported.GET));
    expect(missing).toEqual([]);
  });
});
