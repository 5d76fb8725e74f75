import { connectionFaultCode, isConnectionFault } from "@/db/connection-faults";
import { AppError } from "../errors";

/**
 * What a request does when Postgres drops its connection (a restart, a failover,
 * `pg_terminate_backend`); CONTRACT §4.
 *
 * - A read is run once more: postgres.js opens a fresh connection for the next
 *   query, and a read has nothing to repeat.
 * - Anything else answers 503 service_unavailable with Retry-After. A write is never
 *   retried here: a single statement whose connection dropped may or may not have
 *   committed, so only the client can decide to send it again. Multi-row writes run
 *   in one transaction, which the server rolls back with the connection: nothing is
 *   left half-written.
 *
 * Without a fault none of this runs: no extra query, no timer.
 */

/** Seconds to wait before trying again: about the time a restart or failover takes to accept connections. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

const RETRY_PAUSE_MS = 100;

/**
 * Safe methods (RFC 9110 §9.2.1) may be run again after a connection fault. A GET
 * that writes on the side (a session's last-active time) writes something idempotent;
 * one that consumes a one-time value must do so in a transaction, so the retry
 * finds it either unconsumed or consumed, never half-done.
 */
export function mayRetryAfterFault(method: string, error: unknown): boolean {
  return (method === "GET" || method === "HEAD") && isConnectionFault(error);
}

/**
 * Runs the retry of a read after a short pause. When a restart or
 * `pg_terminate_backend` drops the whole pool, the other connections' closes are
 * still on their way; an immediate retry would often pick one of them and fail again.
 */
export async function retryAfterPause<T>(retry: () => Promise<T>): Promise<T> {
  await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
  return retry();
}

/** Runs a read; when its connection dropped, runs it once more (a fresh connection serves it). */
export async function retryReadOnce<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isConnectionFault(error)) throw error;
    return retryAfterPause(read);
  }
}

/** The 503 a connection fault answers; null for any other error. Logged with the request id, no query text. */
export function serviceUnavailableFor(error: unknown, requestId: string): AppError | null {
  const code = connectionFaultCode(error);
  if (!code) return null;
  console.warn(JSON.stringify({ level: "warn", event: "database.connection_lost", requestId, code }));
  return new AppError("service_unavailable", "The database connection was interrupted. Try again shortly.", {
    headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}
