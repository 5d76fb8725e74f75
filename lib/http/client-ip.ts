import { isIP } from "node:net";

/**
 * The caller's IP. App Router handlers never see the socket; Next.js fills
 * `x-forwarded-for` with the socket address only when the header is absent, and a
 * reverse proxy appends the address it saw. So the trustworthy entry is the
 * rightmost one, after skipping `TRUSTED_PROXY_HOPS` proxies of our own.
 */
export function clientIp(request: Request): string | null {
  const hops = Number(process.env.TRUSTED_PROXY_HOPS ?? 0);
  const chain = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const candidate = chain[chain.length - 1 - hops] ?? chain[0];
  if (!candidate) return null;
  const address = candidate.replace(/^\[|\]$/g, "").replace(/^::ffff:/, "");
  return isIP(address) ? address : null;
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
