import autocannon from "autocannon";
import { verifyPassword } from "@/lib/auth/password-hasher";

/** One measured load: throughput and latency as autocannon saw them. */
export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx, plus connection errors and timeouts: any of them taints the figure. */
  failures: number;
  total: number;
}

export interface LoadRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/**
 * Holds `connections` keep-alive connections busy for `seconds`, each sending the
 * next request as soon as the previous answer arrives (autocannon's closed loop),
 * after an unmeasured warm-up so the JIT, the pool and the caches are hot.
 */
export async function loadTest(request: LoadRequest, options: { connections: number; seconds: number; warmupSeconds: number }): Promise<LoadResult> {
  const run = (duration: number) =>
    autocannon({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: request.body,
      connections: options.connections,
      duration,
      timeout: 10,
    });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const result = await run(options.seconds);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/**
 * The ceiling for logins: argon2id verifications per second with `concurrency`
 * verifications in flight, in this process, on the same libuv pool size the server
 * has. A login can at best match it; the gap is everything else a login does.
 */
export async function verifyRate(passwordHash: string, password: string, options: { concurrency: number; seconds: number }): Promise<LoadResult> {
  const latencies: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();
  const worker = async () => {
    while (performance.now() < deadline) {
      const begin = performance.now();
      if (!(await verifyPassword(passwordHash, password)).ok) throw new Error("verifyPassword refused the right password");
      latencies.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
  return { requestsPerSecond: sorted.length / elapsed, p50: at(50), p99: at(99), failures: 0, total: sorted.length };
}
