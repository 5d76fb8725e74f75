import { availableParallelism } from "node:os";
import { databaseUrl } from "@/db/config";

/**
 * How many server processes to run. The API is CPU-bound on one JavaScript thread
 * per process, so on Postgres there is one per core (at most 4); PGlite has a
 * single owner, so it always gets one. `GATEHOUSE_WORKERS` overrides.
 */
export function serverWorkerCount(): number {
  const configured = Number(process.env.GATEHOUSE_WORKERS);
  if (Number.isInteger(configured) && configured >= 1) return databaseUrl() ? configured : 1;
  return databaseUrl() ? Math.min(availableParallelism(), 4) : 1;
}

/**
 * argon2 runs on libuv's pool; more hashing threads than cores only adds contention,
 * so the cores are shared out between the workers (unless UV_THREADPOOL_SIZE is set).
 */
export function threadPoolSize(workers: number): string {
  return process.env.UV_THREADPOOL_SIZE ?? String(Math.max(1, Math.ceil(availableParallelism() / workers)));
}

/** The first worker (or the only process) does the once-per-deployment work: migrations. */
export function isLeadWorker(): boolean {
  return (process.env.GATEHOUSE_WORKER ?? "1") === "1";
}
