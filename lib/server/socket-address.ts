import http, { type IncomingMessage } from "node:http";
import https from "node:https";

const RECORDED = Symbol.for("gatehouse.socketAddressRecorded");
const HOOKED = Symbol.for("gatehouse.socketAddressHook");

type Marked<T> = T & { [RECORDED]?: true; [HOOKED]?: true };

/**
 * Appends the TCP peer's address to `X-Forwarded-For`, once per request, before any
 * handler reads the headers. Next.js fills that header only when it is absent, so
 * without this a client's own `X-Forwarded-For` would stand in for the socket. With
 * it the right-most entry is always the socket, and lib/http/client-ip.ts walks back
 * from there through `TRUSTED_PROXY_HOPS` proxies only.
 */
export function recordSocketAddress(req: IncomingMessage): void {
  const marked = req as Marked<IncomingMessage>;
  if (marked[RECORDED]) return;
  marked[RECORDED] = true;
  // A socket that is already gone has no address: "unknown" (no IP) rather than
  // leaving the client's last entry in the socket's place.
  const socket = req.socket.remoteAddress ?? "unknown";
  const prior = req.headers["x-forwarded-for"];
  const chain = Array.isArray(prior) ? prior.join(", ") : prior;
  req.headers["x-forwarded-for"] = chain ? `${chain}, ${socket}` : socket;
}

/**
 * Records the socket address on every request of every HTTP(S) server in this
 * process. For a bare `next start` or `next dev`, whose server Gatehouse does not
 * create (instrumentation runs this at boot); the production server
 * (lib/server/start-server.ts) calls recordSocketAddress from its own listener.
 */
export function recordSocketAddressOnEveryServer(): void {
  for (const prototype of [http.Server.prototype, https.Server.prototype] as Marked<http.Server>[]) {
    if (prototype[HOOKED]) continue;
    prototype[HOOKED] = true;
    const emit = prototype.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    prototype.emit = function emitRecordingSocket(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") recordSocketAddress(args[0] as IncomingMessage);
      return emit.call(this, event, ...args);
    } as typeof prototype.emit;
  }
}
