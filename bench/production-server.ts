import { benchDatabaseUrl } from "./bench-database";
import { buildState, runNextBuild } from "@/lib/server/build";

/** Builds the production app when it is missing, or stale and `rebuild` is on (a clean build takes about 20 s). */
export function ensureBuild(rebuild: boolean): void {
  const state = buildState();
  if (state === "fresh" || (state === "stale" && !rebuild)) return;
  console.log(state === "missing" ? "building the app…" : "sources changed since the last build; rebuilding…");
  if (!runNextBuild({ ...process.env, NEXT_TELEMETRY_DISABLED: "1" })) throw new Error("`next build` failed (output above)");
}

/**
 * The environment a benchmarked server runs with: production mode on plain http.
 * PUBLIC_URL only feeds links and the issuer, which the benches never follow; the
 * benches send no email, so the outbox stays on deliberately (DEV_MAILBOX=1).
 */
export function benchServerEnv(secret: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    GATEHOUSE_MODE: "production",
    GATEHOUSE_SECRET: secret,
    PUBLIC_URL: "https://gatehouse-bench.invalid",
    DEV_MAILBOX: "1",
    // Production keeps the outbox only with a stated proxy setup: none, the benches connect directly.
    TRUSTED_PROXY_HOPS: "0",
    DATABASE_URL: benchDatabaseUrl(),
  };
}
