import { headers } from "next/headers";

/**
 * The lib functions take a `Request` (client IP, user agent, Origin, cookies, Host,
 * https or not), as the Client API hands them. Pages and server actions only have
 * `headers()`, so this rebuilds an equivalent request from them. The publishable
 * key from the `pk` parameter becomes `X-API-Key`, the same tenancy rule the
 * Client API applies; a key header sent by the browser itself is ignored.
 */
export async function hostedRequest(publishableKey: string | null, method: "GET" | "POST" = "GET"): Promise<Request> {
  return hostedRequestFrom(await headers(), publishableKey, method);
}

/** hostedRequest for a caller that holds the incoming headers itself (the proxy). */
export function hostedRequestFrom(incoming: Headers, publishableKey: string | null, method: "GET" | "POST" = "GET"): Request {
  const forwarded = new Headers(incoming);
  forwarded.delete("x-api-key");
  if (publishableKey) forwarded.set("x-api-key", publishableKey);
  const host = incoming.get("x-forwarded-host")?.split(",")[0]?.trim() || incoming.get("host") || "localhost";
  const protocol = incoming.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return new Request(`${protocol}://${host}/`, { method, headers: forwarded });
}
