import { isIP } from "node:net";
import { trustedProxyHops } from "../config/runtime";

/**
 * `X-Forwarded-For` from left (nearest the client) to right (nearest us). The
 * right-most entry is always the socket address: our server appends it to whatever
 * the client sent (lib/server/socket-address.ts), and in-process callers that build a
 * Request themselves put the peer they stand for there.
 */
function forwardedChain(request: Request): string[] {
  return listHeader(request, "x-forwarded-for");
}

/** The entries of a comma-separated header, trimmed, empty ones dropped. */
function listHeader(request: Request, name: string): string[] {
  return (request.headers.get(name) ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function parseAddress(entry: string | undefined): string | null {
  if (!entry) return null;
  const address = entry.replace(/^\[|\]$/g, "").replace(/^::ffff:/, "");
  return isIP(address) ? address : null;
}

/**
 * The caller's IP. Starts at the socket and walks back one entry per trusted proxy
 * (`TRUSTED_PROXY_HOPS`), each of which appended the address it saw. It never walks
 * further: entries left of that point are whatever the client chose to send. A chain
 * shorter than the walk stops at its left-most entry, which a trusted proxy appended
 * itself (or is the socket when no proxy is trusted), never a client-written one.
 */
export function clientIp(request: Request): string | null {
  const chain = forwardedChain(request);
  return parseAddress(chain[Math.max(0, chain.length - 1 - trustedProxyHops())]);
}

/** 127.0.0.0/8 and ::1 (IPv4-mapped forms are unwrapped by parseAddress). */
function isLoopback(address: string | null): boolean {
  if (!address) return false;
  return address === "::1" || (isIP(address) === 4 && address.startsWith("127."));
}

/** The name of a `host[:port]` or `[ipv6][:port]` (Host, X-Forwarded-Host, a Forwarded node), or null when malformed. */
function nameOf(hostAndPort: string): string | null {
  const value = hostAndPort.trim().replace(/^"|"$/g, "").toLowerCase();
  return (/^\[([^\]]+)\](?::\d+)?$/.exec(value) ?? /^([^:[\]]+)(?::\d+)?$/.exec(value))?.[1] ?? null;
}

/** `localhost`, a `*.localhost` name (RFC 6761 §6.3: always this machine), 127.0.0.0/8 or ::1. */
function isLoopbackName(hostAndPort: string): boolean {
  const name = nameOf(hostAndPort);
  if (!name) return false;
  return name === "localhost" || name.endsWith(".localhost") || isLoopback(parseAddress(name));
}

/** The values of one parameter (`for`, `host`) across every element of `Forwarded` (RFC 7239 §4). */
function forwardedParameter(request: Request, parameter: string): string[] {
  return listHeader(request, "forwarded").flatMap((element) =>
    element
      .split(";")
      .map((pair) => pair.split("="))
      .filter(([key]) => key?.trim().toLowerCase() === parameter)
      .map(([, value = ""]) => value),
  );
}

/**
 * A request made on this machine (the development mailbox). Every address and name
 * it carries must be loopback: the socket, each X-Forwarded-For entry, X-Real-IP and
 * Forwarded `for=`, and the Host it was sent to (X-Forwarded-Host and Forwarded `host=`
 * too). A reverse proxy on this host makes the socket loopback for every request from
 * the internet, and with TRUSTED_PROXY_HOPS=0 the client it names is not the client
 * IP; what it appends, and the public name it was reached by, still give it away.
 * Forwarded addresses a client sends itself can only make it look remote: a proxy
 * appends the real one after them. The Host is another matter: a proxy that appends
 * none of these headers still looks local when the Host it passes on is loopback,
 * either its own (nginx's default `proxy_pass http://127.0.0.1:3000` sends
 * `Host: 127.0.0.1:3000` for every request) or the client's, which anyone can set to
 * `localhost`. So this check does not make a development server safe to put behind
 * a proxy, and production serves the mailbox only with TRUSTED_PROXY_HOPS stated
 * (lib/config/production-checks.ts).
 */
export function fromLoopback(request: Request): boolean {
  const chain = forwardedChain(request);
  const addresses = [...chain, ...listHeader(request, "x-real-ip"), ...forwardedParameter(request, "for").map((node) => nameOf(node) ?? "")];
  // A Request built in-process (tests, hosted pages) may carry its host in the URL only.
  const hosts = [request.headers.get("host") ?? new URL(request.url).host, ...listHeader(request, "x-forwarded-host"), ...forwardedParameter(request, "host")];
  return chain.length > 0 && addresses.every((entry) => isLoopback(parseAddress(entry))) && hosts.every(isLoopbackName);
}

/** Rate-limit key for an address: IPv4 as is, IPv6 by its /64 (one subscriber's whole prefix). */
export function ipRateLimitKey(address: string | null): string {
  if (!address) return "unknown";
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::")
    ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right]
    : left;
  return `${groups.slice(0, 4).map((group) => parseInt(group || "0", 16).toString(16)).join(":")}::/64`;
}
