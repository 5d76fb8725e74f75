import { e2eRun } from "./run-settings";

/** A tiny Server API client (Authorization: Bearer sk_...) for setting up what the browser tests need. */
export function serverApi(secretKey: string) {
  const base = `${e2eRun().baseUrl}/api/server/v1`;
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
  return {
    get: <T>(path: string) => call<T>("GET", path),
    post: <T>(path: string, body: unknown) => call<T>("POST", path, body),
    patch: <T>(path: string, body: unknown) => call<T>("PATCH", path, body),
    put: <T>(path: string, body: unknown) => call<T>("PUT", path, body),
  };
}
