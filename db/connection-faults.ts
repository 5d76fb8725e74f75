/** postgres.js's own codes for a connection that closed, was ended or never came up. */
const DRIVER_CODES = new Set(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"]);

/** Node socket errors on the way to or from the server. */
const SOCKET_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATEs of a server going away: 57P01 admin_shutdown (a restart,
 * `pg_terminate_backend`), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up
 * or in recovery), and class 08, connection exception.
 */
function isConnectionSqlState(code: string): boolean {
  return code === "57P01" || code === "57P02" || code === "57P03" || /^08[0-9A-Z]{3}$/.test(code);
}

/**
 * The code of an error that means the database connection was lost or could not be
 * made, rather than that the statement was wrong (the request may succeed on a fresh
 * connection); null for any other error. drizzle wraps driver errors
 * (DrizzleQueryError), so the causes are searched too.
 */
export function connectionFaultCode(error: unknown): string | null {
  for (let current = error, depth = 0; current && typeof current === "object" && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (DRIVER_CODES.has(code) || SOCKET_CODES.has(code) || isConnectionSqlState(code))) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function isConnectionFault(error: unknown): boolean {
  return connectionFaultCode(error) !== null;
}
