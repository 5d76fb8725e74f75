import http from "node:http";
import type { AddressInfo } from "node:net";
import next from "next";
import { closeDb, databaseHandle } from "@/db/client";
import { preloadRoutes } from "../http/route-table";
import { stopJobRunner } from "../jobs/job-runner";
import { createFastPath, FAST_PATH_PREFIXES } from "./fast-path";

export interface RunningServer {
  server: http.Server;
  port: number;
  /** Stops accepting connections, lets in-flight requests finish (at most `graceMs`), closes the database. */
  close(graceMs?: number): Promise<void>;
}

/**
 * The production server: Next.js (built in `.next`) in this process for pages and
 * assets, and the fast path for API URLs. Both reach the one database handle, which
 * db/client.ts keeps on globalThis: Next's bundled copy of that module and the copy
 * loaded here find the same pool (and PGlite is never opened twice).
 */
export async function startServer(options: { port: number; dir?: string }): Promise<RunningServer> {
  const dir = options.dir ?? process.cwd();
  // Open the shared handle here, before Next's instrumentation does, so the API path
  // runs on the same drizzle-orm copy the tests use (Next's bundle carries its own).
  databaseHandle();
  const app = next({ dev: false, dir, hostname: "localhost", port: options.port });
  // Loads the build and runs instrumentation.ts (production checks, migrations).
  await app.prepare();
  // Compile the API route modules now, not on the first request of each.
  await preloadRoutes(FAST_PATH_PREFIXES);

  let port = options.port;
  const server = http.createServer(createFastPath({ next: app.getRequestHandler(), port: () => port }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;

  return {
    server,
    port,
    async close(graceMs = 5_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
      await app.close();
      await stopJobRunner();
      await closeDb();
    },
  };
}
