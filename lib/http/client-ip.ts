import { isIP } from "node:net";
import { trustedProxyHops } from "../config/runtime";

/**
 * `X-Forwarded-For` from left (nearest the client) to right (nearest us). The
 * right-most entry is always the socket address: our server appends it to whatever
 * the client sent (lib/server/socket-address.ts), and in-process callers that build a
 * Request themselves put the peer they stand for there.
 */
function forwardedChain(request: Request): string[] {
  return (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function parseAddress(entry: string | undefined): string | null {
  if (!entry) return null;
  const address = entry.replace(/^\[|\]$/g, "").replace(/^::ffff:/, "");
  return isIP(address) ? address : null;
}

/** The TCP peer of this request (the right-most hop), or null when unknown. */
export function socketAddress(request: Request): string | null {
  return parseAddress(forwardedChain(request).at(-1));
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

/**
 * A request made on this machine: the socket is loopback, and so is the client the
 * trusted proxies name (a reverse proxy on this host would otherwise make every
 * request from the internet look local).
 */
export function fromLoopback(request: Request): boolean {
  return isLoopback(socketAddress(request)) && isLoopback(clientIp(request));
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
