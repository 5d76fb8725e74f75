import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { recordSocketAddress } from "./socket-address";

/** RequestInit as undici takes it: a streamed body needs `duplex: "half"`, which the DOM types lack. */
type StreamingRequestInit = RequestInit & { duplex?: "half" };

/** Same rule as Next.js's router: TLS on the socket, or a proxy saying https. */
export function requestProtocol(req: IncomingMessage): "http" | "https" {
  const encrypted = Boolean((req.socket as Partial<TLSSocket>).encrypted);
  const forwarded = req.headers["x-forwarded-proto"];
  const proxiedHttps = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).includes("https");
  return encrypted || proxiedHttps ? "https" : "http";
}

/**
 * The Web Request a route handler receives under `next start`, built from Node's
 * IncomingMessage. The URL says `localhost:<port>` like Next's does (handlers read the
 * tenant host from the headers), and `x-forwarded-host/port/proto` are filled in only
 * when absent, exactly as Next.js's base server does. `x-forwarded-for` always ends
 * with the socket address (recordSocketAddress), whatever the client sent: that
 * right-most entry is where lib/http/client-ip.ts starts.
 */
export function toWebRequest(req: IncomingMessage, port: number, signal: AbortSignal): Request {
  const method = req.method ?? "GET";
  const protocol = requestProtocol(req);
  const url = `${protocol}://localhost:${port}${req.url ?? "/"}`;
  recordSocketAddress(req);

  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    // Node joins repeated headers already (cookies with "; "); only set-cookie stays a list.
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  setIfAbsent(headers, "x-forwarded-host", req.headers.host ?? "localhost");
  setIfAbsent(headers, "x-forwarded-port", String(port));
  setIfAbsent(headers, "x-forwarded-proto", protocol);

  const init: StreamingRequestInit = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD" && hasBody(req)) {
    init.body = lazyBody(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

function setIfAbsent(headers: Headers, name: string, value: string): void {
  if (!headers.has(name)) headers.set(name, value);
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/**
 * The body as a stream that touches the socket only when a handler reads it, one
 * chunk per read (highWaterMark 0), so readJsonBody's 64 KiB limit stops reading
 * after at most one chunk past the limit. Cancelling deliberately does not destroy
 * the request: that would tear down the socket before the 413 could be sent. The
 * response closes the connection instead (see `bodyStillArriving`).
 */
function lazyBody(req: IncomingMessage): ReadableStream<Uint8Array> {
  let chunks: AsyncIterator<Buffer> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * The body is still arriving when the response is ready (an oversized upload cut off
 * at 64 KiB, or a handler that answered without reading). The connection must then
 * close after the response: a half-read body would leave the next keep-alive request
 * stuck behind it, and draining it would let a client stream gigabytes at us.
 */
export function bodyStillArriving(req: IncomingMessage): boolean {
  return !req.complete;
}
