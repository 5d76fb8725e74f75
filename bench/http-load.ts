import autocannon from "autocannon";

export interface CreateLoadResult {
  /** 2xx answers per second: users the API created. */
  createdPerSecond: number;
  created: number;
  /** Anything else: non-2xx statuses, connection errors and timeouts. */
  failed: number;
  statusCounts: Record<string, number>;
  seconds: number;
  latencyMs: { p50: number; p97_5: number; p99: number };
}

/**
 * POSTs /api/server/v1/users with `concurrency` requests in flight for `seconds`.
 * Every body carries a fresh email, so each request really creates (and hashes)
 * a user instead of stopping early at identifier_exists.
 */
export async function loadCreateUsers(options: {
  baseUrl: string;
  secretKey: string;
  concurrency: number;
  seconds: number;
  /** Keeps emails unique across the warm-up and measured runs of one bench run. */
  emailPrefix: string;
  /** False sends no password: the same request minus the hash, to price the rest of the path. */
  withPassword?: boolean;
}): Promise<CreateLoadResult> {
  const withPassword = options.withPassword ?? true;
  let sequence = 0;
  const result = await autocannon({
    url: `${options.baseUrl}/api/server/v1/users`,
    connections: options.concurrency,
    duration: options.seconds,
    // A create takes tens of ms on a busy machine; 30 s only catches a hung server.
    timeout: 30,
    requests: [
      {
        method: "POST",
        headers: { authorization: `Bearer ${options.secretKey}`, "content-type": "application/json" },
        setupRequest: (request) => {
          const n = sequence++;
          return {
            ...request,
            body: JSON.stringify({
              email: `${options.emailPrefix}-${n}@example.com`,
              ...(withPassword ? { password: `correct horse battery staple ${n}` } : {}),
              firstName: "Bench",
              lastName: `User ${n}`,
            }),
          };
        },
      },
    ],
  });

  const statusCounts: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = stats.count ?? 0;
  const created = result["2xx"];
  return {
    createdPerSecond: created / result.duration,
    created,
    // autocannon counts timeouts among errors already.
    failed: result.non2xx + result.errors,
    statusCounts,
    seconds: result.duration,
    latencyMs: { p50: result.latency.p50, p97_5: result.latency.p97_5, p99: result.latency.p99 },
  };
}
