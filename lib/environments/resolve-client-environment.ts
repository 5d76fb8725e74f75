import { and, arrayOverlaps, eq, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { environments } from "@/db/schema";
import { toEnvironmentContext, type EnvironmentContext } from "./context";
import { requestHostSpelling } from "./frontend-host";

const PUBLISHABLE_KEY_PATTERN = /^pk_(test|live)_[A-Za-z0-9_-]{16,100}$/;

/**
 * The tenant host of a request: `x-forwarded-host` from a proxy, else `host`, spelled as
 * frontend hosts are stored (requestHostSpelling), so `ACME.test.` or `acme.test:443`
 * finds the environment of `acme.test` (under an https PUBLIC_URL on the default port).
 * A Host no frontend host can be (an IPv6 literal, say) stays as sent, lower-cased: it
 * names no environment, and may be PUBLIC_URL's.
 */
export function requestHost(request: Request): string | null {
  const forwarded = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  const host = forwarded || request.headers.get("host");
  return host ? (requestHostSpelling(host) ?? host.toLowerCase()) : null;
}

/**
 * Client API tenancy (CONTRACT §2): `X-API-Key: pk_...` when present, else the Host
 * matched against the environment's frontend hosts. Returns null when neither matches.
 * The dashboard's internal environment (lib/operators/internal-environment.ts) is
 * never found: its users are the operators, who sign in only at /dashboard/sign-in.
 */
export async function findClientEnvironment(db: Database, request: Request): Promise<EnvironmentContext | null> {
  const key = request.headers.get("x-api-key");
  if (key) {
    if (!PUBLISHABLE_KEY_PATTERN.test(key)) return null;
    const byKey = preparedStatement(db, "environment_by_publishable_key", (d) =>
      d
        .select()
        .from(environments)
        .where(and(eq(environments.publishableKey, sql.placeholder("key")), eq(environments.internal, false)))
        .limit(1)
        .prepare("environment_by_publishable_key"),
    );
    const [row] = await byKey.execute({ key });
    return row ? toEnvironmentContext(row) : null;
  }
  const host = requestHost(request);
  if (!host) return null;
  // A frontend host stored without a port matches the host on any port; an environment
  // that lists the exact host:port wins over one that lists the bare name (each host
  // belongs to at most one environment: environment_frontend_hosts).
  const candidates = [host, host.replace(/:\d+$/, "")];
  const [row] = await db
    .select()
    .from(environments)
    .where(and(arrayOverlaps(environments.frontendHosts, candidates), eq(environments.internal, false)))
    .orderBy(sql`${environments.frontendHosts} @> ARRAY[${host}]::text[] desc`)
    .limit(1);
  return row ? toEnvironmentContext(row) : null;
}
