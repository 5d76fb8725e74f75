import dns, { type LookupAddress, type LookupAllOptions } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";
import type { CustomFetch } from "openid-client";
import { Agent, fetch, type BodyInit } from "undici";
import { isProduction, oauthPrivateHosts } from "../config/runtime";

/*
 * Where Gatehouse may send a request for an OAuth provider. The issuer is whatever the
 * operator typed, and its discovery document names the token, JWKS and UserInfo
 * endpoints, so without this an issuer could make Gatehouse send authorization codes
 * and the client secret to the cloud metadata address (169.254.169.254) or an internal
 * service, and /authorize lets anyone trigger discovery. In production every address
 * must be public, unless the operator names the host in OAUTH_PRIVATE_HOSTS (an identity
 * provider on their own network). Outside production nothing is refused: local and
 * test providers run on loopback (CONTRACT §5).
 */

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network", with the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT: the provider's network, not the internet
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, with the cloud metadata service
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments (RFC 6890), local to the network that uses them
  ["192.0.2.0", 24], // documentation (RFC 5737): never routed, so only a local network answers
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking (RFC 2544): lab networks
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 3], // multicast, reserved and broadcast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ["64:ff9b:1::", 48], // NAT64 local-use prefix (RFC 8215) in a form other than /96, whose IPv4 bits cannot be told (see EMBEDDED_IPV4)
  ["100::", 64], // discard-only (RFC 6666)
  ["2001::", 32], // Teredo: the server and the client's IPv4 are both embedded; a provider has no reason to be reached through it
  ["2001:db8::", 32], // documentation (RFC 3849)
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated, RFC 3879), still private where in use
  ["ff00::", 8], // multicast
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, "ipv6");
}

/**
 * IPv6 ranges that carry an IPv4 address, and the 16-bit group where it starts: a
 * translator or relay forwards to that IPv4 address, so it is judged by the IPv4
 * rules (64:ff9b::a9fe:a9fe reaches 169.254.169.254 on an IPv6-only host with NAT64).
 * IPv4-mapped addresses (::ffff:0:0/96) need no entry: BlockList judges them itself.
 */
const EMBEDDED_IPV4 = [
  { network: "64:ff9b::", prefix: 96, group: 6 }, // NAT64 well-known prefix (RFC 6052)
  { network: "64:ff9b:1::", prefix: 96, group: 6 }, // NAT64 local-use prefix (RFC 8215), in the /96 form
  { network: "2002::", prefix: 16, group: 1 }, // 6to4 (RFC 3056): bits 16-47
  { network: "::ffff:0:0:0", prefix: 96, group: 6 }, // IPv4-translated (RFC 2765, SIIT)
].map(({ network, prefix, group }) => {
  const range = new BlockList();
  range.addSubnet(network, prefix, "ipv6");
  return { range, group };
});

/** The eight 16-bit groups of an IPv6 address (URL spells it canonically: lower-case hex, at most one "::", no dotted IPv4 tail). */
function ipv6Groups(address: string): number[] {
  // URL takes no zone index (fe80::1%eth0), and the zone does not change the address.
  const [head = "", tail] = new URL(`http://[${address.replace(/%.*$/, "")}]`).hostname.slice(1, -1).split("::");
  const groups = (part: string | undefined) => (part ? part.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const [left, right] = [groups(head), groups(tail)];
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address an IPv6 address embeds (NAT64, 6to4, IPv4-translated), else null. */
function embeddedIpv4(address: string): string | null {
  const embedding = EMBEDDED_IPV4.find(({ range }) => range.check(address, "ipv6"));
  if (!embedding) return null;
  const [high = 0, low = 0] = ipv6Groups(address).slice(embedding.group, embedding.group + 2);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** Whether an IP address is public. IPv4 carried in IPv6 (::ffff:127.0.0.1, 64:ff9b::7f00:1, 2002:7f00:1::) is judged by the IPv4 rules. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const embedded = embeddedIpv4(address);
    if (embedded) return isPublicAddress(embedded);
  }
  return !NON_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A host as URL spells it, compared without brackets, case or a fully qualified name's trailing dot. */
function canonicalHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/** The hosts the operator allows although they are not public, spelled as URL would (10.0.0.5, ::1, sso.corp.internal). */
function isOperatorAllowed(hostname: string): boolean {
  const host = canonicalHost(hostname);
  return oauthPrivateHosts().some((entry) => {
    // Through URL so that any spelling of an address matches its canonical form.
    const spelled = isIP(entry) === 6 ? `[${entry}]` : entry;
    return URL.canParse(`https://${spelled}`) && canonicalHost(new URL(`https://${spelled}`).hostname) === host;
  });
}

/** Names that are local by definition (RFC 6761 `localhost`; `.internal` is reserved for private networks and cloud metadata). */
const LOCAL_NAME = /(^|\.)(localhost|internal)$/;

/**
 * Why a URL's host may not be contacted in production, judged without DNS: an IP
 * literal that is not public, or a local name. Null when acceptable so far (DNS may
 * still refuse it), and always for a host in OAUTH_PRIVATE_HOSTS.
 */
export function hostProblem(hostname: string): string | null {
  if (isOperatorAllowed(hostname)) return null;
  const host = canonicalHost(hostname);
  if (isIP(host)) return isPublicAddress(host) ? null : "must not be a loopback, private, link-local or other non-public address in production";
  return LOCAL_NAME.test(host) ? "must not name a local or internal host (localhost, *.localhost, *.internal) in production" : null;
}

const resolvedProblem = (hostname: string, address: string) => `must not resolve to a non-public address in production (${hostname} resolves to ${address})`;

/** The error a refused outbound request fails with; providerFailure turns it into oauth_failed and logs its message. */
export class OutboundAddressRefused extends Error {
  override name = "OutboundAddressRefused";
  readonly code = "ERR_OUTBOUND_ADDRESS_REFUSED";
}

/**
 * The check at provider create and update (production only): the rules above, then
 * every address the host resolves to now. A name that does not resolve (yet) is let
 * through: each request is checked again when it is made.
 */
export async function outboundHostProblem(hostname: string): Promise<string | null> {
  if (!isProduction()) return null;
  if (isOperatorAllowed(hostname)) return null;
  const problem = hostProblem(hostname);
  if (problem) return problem;
  const addresses = await dns.promises.lookup(hostname, { all: true }).catch(() => []);
  const refused = addresses.find((entry) => !isPublicAddress(entry.address));
  return refused ? resolvedProblem(hostname, refused.address) : null;
}

/** dns.lookup asking for every address; a parameter so that tests can name hosts the system resolver does not know. */
export type ResolveAll = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * The socket's own name lookup: resolves every address, refuses the connection in
 * production when any of them is not public, and hands the checked addresses to
 * the socket, which connects to one of them. Checking and connecting on one answer
 * is what stops DNS rebinding (a name that resolves to a public address for a check
 * and to 127.0.0.1 for the connection).
 */
function checkedLookup(resolve: ResolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const checked = isProduction() && !isOperatorAllowed(hostname);
      const refused = checked ? addresses.find((entry) => !isPublicAddress(entry.address)) : undefined;
      if (refused) return callback(new OutboundAddressRefused(`The provider host ${resolvedProblem(hostname, refused.address)}.`), []);
      // Node asks for all addresses when it races IPv4 and IPv6 (autoSelectFamily), else for one.
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * A fetch for openid-client (its `customFetch`) that refuses, in production, a
 * non-public IP literal or local name before connecting, and any name resolving to a
 * non-public address at connection time (see checkedLookup).
 */
export function guardedFetch(resolve: ResolveAll = dns.lookup): CustomFetch {
  const dispatcher = new Agent({ connect: { lookup: checkedLookup(resolve) } });
  return async (url, options) => {
    const { hostname } = new URL(url);
    // An IP literal never reaches the lookup (the socket connects to it directly): judge it here.
    const problem = isProduction() ? hostProblem(hostname) : null;
    if (problem) throw new OutboundAddressRefused(`The provider host ${hostname} ${problem}.`);
    // undici types bodies and responses with its own classes: a web ReadableStream body
    // works at run time, and openid-client accepts undici's Response by its tag.
    return (await fetch(url, { ...options, body: options.body as BodyInit, dispatcher })) as unknown as Response;
  };
}

/** The fetch every request toward an OAuth provider goes through. */
export const providerFetch = guardedFetch();
