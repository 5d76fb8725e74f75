/**
 * The production server `npm start` hands over to (it builds, migrates and seeds
 * first): Next.js for pages plus the API fast path (lib/server/fast-path.ts), on PORT.
 * On Postgres it runs one worker process per core (lib/server/workers.ts).
 * Runs under tsx (`node --import tsx scripts/server.ts`), because the fast path
 * imports the route handlers from their TypeScript sources in app/.
 */

// Like `next start`: a production build renders with production React, whatever
// NODE_ENV the caller had. Set before Next.js or React is imported, hence the
// dynamic imports below.
Object.assign(process.env, { NODE_ENV: "production" });
export {}; // a module, for top-level await

const cluster = (await import("node:cluster")).default;
const { serverWorkerCount, threadPoolSize } = await import("../lib/server/workers");

const workers = serverWorkerCount();
if (cluster.isPrimary && workers > 1) {
  const { superviseWorkers } = await import("../lib/server/supervise-workers");
  superviseWorkers(cluster, workers, threadPoolSize(workers));
} else {
  await serve();
}

async function serve(): Promise<void> {
  const { port } = await import("../lib/config/runtime");
  const { startServer } = await import("../lib/server/start-server");
  const started = Date.now();
  const running = await startServer({ port: port() });
  const worker = process.env.GATEHOUSE_WORKER ? ` (worker ${process.env.GATEHOUSE_WORKER})` : "";
  console.log(`gatehouse: ready on http://localhost:${running.port}${worker} in ${Date.now() - started} ms (API fast path + Next.js pages)`);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // In-flight requests get 5 s; whatever still hangs after that must not keep a stopped server alive.
    setTimeout(() => {
      console.error(`gatehouse: still stopping 10 s after ${signal}; exiting anyway`);
      process.exit(1);
    }, 10_000).unref();
    running.close(5_000).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`gatehouse: error while stopping on ${signal}:`, error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
