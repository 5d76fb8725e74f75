import { hashPassword } from "@/lib/auth/password-hasher";
import { elapsedSince, summarize, type LatencySummary } from "./stats";

export interface RateResult {
  /** Completed operations per second over the measured window. */
  perSecond: number;
  completed: number;
  seconds: number;
  latency: LatencySummary;
}

/**
 * The ceiling for user creation: argon2id hashes per second from the very
 * function createUser calls, with `concurrency` hashes in flight, the same
 * number of requests the HTTP load keeps in flight. Runs in this process while
 * the server is idle, so the two numbers share the machine, not the moment.
 */
export async function measureHashRate(concurrency: number, durationMs: number): Promise<RateResult> {
  // One untimed hash per worker first: loads the native addon and warms the thread pool.
  await Promise.all(Array.from({ length: concurrency }, (_, i) => hashPassword(`correct horse battery staple warm-up ${i}`)));

  const samples: number[] = [];
  const started = performance.now();
  const deadline = started + durationMs;
  let counter = 0;
  const worker = async () => {
    // Only hashes that finish inside the window count, so the rate is not inflated by a tail.
    while (performance.now() < deadline) {
      const begun = performance.now();
      await hashPassword(`correct horse battery staple ${counter++}`);
      if (performance.now() <= deadline) samples.push(elapsedSince(begun));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = durationMs / 1000;
  return { perSecond: samples.length / seconds, completed: samples.length, seconds, latency: summarize(samples) };
}
