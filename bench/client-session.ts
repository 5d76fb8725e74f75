import { randomBytes } from "node:crypto";
import { createEnvironment, type CreatedEnvironment } from "@/lib/environments/create-environment";
import { benchDatabaseUrl, openBenchDatabase } from "./bench-database";

/** A fresh environment in the bench database, a user in it and a signed-in session. */
export interface ClientFixture {
  environment: CreatedEnvironment;
  email: string;
  password: string;
  /** The session cookies the sign-in set (`__gh_session`, its `__Host-` companion on https, the hint) as a Cookie header. */
  cookie: string;
}

export const BENCH_PASSWORD = "bench: correct horse battery staple";

/** Its own environment per run: earlier runs' sessions and rate-limit rows never skew this one. */
export async function createBenchEnvironment(bench = "client"): Promise<CreatedEnvironment> {
  const handle = await openBenchDatabase(benchDatabaseUrl(), 1);
  try {
    return await createEnvironment(handle.db, { name: `${bench} bench ${new Date().toISOString()}` });
  } finally {
    await handle.close();
  }
}

/** One request through a running server's API; anything but a 2xx throws with the answer. */
export async function send(baseUrl: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response;
}

/**
 * Through a running server's own APIs: turns rate limits off for the environment
 * (development environments may, CONTRACT §6; the login bench signs in thousands of
 * times from one address), creates the user, and signs in once for a session cookie.
 */
export async function prepareClientFixture(baseUrl: string, environment: CreatedEnvironment): Promise<ClientFixture> {
  const server = { authorization: `Bearer ${environment.secretKey}` };
  await send(baseUrl, "PATCH", "/api/server/v1/environment", server, { rateLimits: { enabled: false } });
  const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
  await send(baseUrl, "POST", "/api/server/v1/users", server, { email, password: BENCH_PASSWORD });
  const login = await send(baseUrl, "POST", "/_svc/auth/login", { "x-api-key": environment.publishableKey }, { email, password: BENCH_PASSWORD });
  const cookies = login.headers.getSetCookie().map((cookie) => cookie.split(";")[0] ?? "");
  if (!cookies.some((cookie) => cookie.startsWith("__gh_session="))) throw new Error("login set no __gh_session cookie");
  return { environment, email, password: BENCH_PASSWORD, cookie: cookies.join("; ") };
}
