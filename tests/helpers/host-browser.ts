import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { environments } from "@/db/schema";
import { createEnvironment } from "@/lib/environments/create-environment";
import { call, serverApi } from "./api";

/**
 * A browser on one frontend host: no X-API-Key (the Host names the environment, as
 * for a real page on that host), Accept: text/html (a GET may send others), and a cookie jar of its own, as
 * host-only cookies are kept per host.
 */
export function hostBrowser(host: string) {
  const jar = new Map<string, string>();
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const res = await call(method, path, { body, headers: { host, accept: "text/html", ...(cookie ? { cookie } : {}), ...headers } });
    for (const setCookie of res.headers.getSetCookie()) {
      const [pair = ""] = setCookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (value === "" || /max-age=0/i.test(setCookie)) jar.delete(name.trim());
      else jar.set(name.trim(), value.trim());
    }
    return res;
  };
  return {
    jar,
    /** `headers` override the browser's own (Accept, say). */
    get: (path: string, headers?: Record<string, string>) => send("GET", path, undefined, headers),
    post: (path: string, body?: unknown) => send("POST", path, body),
    delete: (path: string) => send("DELETE", path),
  };
}

export type HostBrowser = ReturnType<typeof hostBrowser>;

let counter = 0;

/**
 * An environment served on `hosts` frontend hosts (`{host, origin}` each, origin with
 * PUBLIC_URL's scheme and port), with room for a test's many sign-ins from one IP.
 * `domain`: the hosts' parent domain (`localhost` for loopback names, where plain
 * http stands in for https outside production).
 */
export async function hostedEnvironment(hostCount = 1, domain = "example.test") {
  counter += 1;
  const tag = `${counter}-${Math.random().toString(36).slice(2, 8)}`;
  const hosts = Array.from({ length: hostCount }, (_, i) => `app${i}-${tag}.${domain}`);
  const created = await createEnvironment(getDb(), { name: `Hosted ${tag}`, frontendHost: hosts[0] });
  if (hosts.length > 1) await getDb().update(environments).set({ frontendHosts: hosts }).where(eq(environments.id, created.environmentId));
  const api = serverApi(created.secretKey);
  const limit = { limit: 10_000, windowSeconds: 10 };
  const res = await api.patch("/environment", { rateLimits: { signIn: limit, codeAttempts: limit, emailSends: limit } });
  if (res.status !== 200) throw new Error(`settings: ${res.text}`);
  const port = new URL(process.env.PUBLIC_URL ?? "http://localhost:3000").port;
  return { ...created, api, hosts: hosts.map((host) => ({ host, origin: `http://${host}${port ? `:${port}` : ""}` })) };
}
