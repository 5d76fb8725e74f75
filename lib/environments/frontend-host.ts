import { z } from "zod";
import { publicUrl } from "../config/runtime";
import { normalizeOrigin } from "./allowed-origins";

/** A host name of ASCII labels (at most 253 characters) with an optional :port. */
const HOST_PATTERN = /^(?=.{1,253}(:|$))[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/** The port a URL reaches: its own, else its scheme's default. */
function effectivePort(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

/**
 * A frontend host (`host[:port]`) in its one spelling, or null when it is none: lower
 * case, IDNA as punycode ASCII, no trailing dot, and no port when it is PUBLIC_URL's
 * (its explicit port, else its scheme's default). An entry's origin takes PUBLIC_URL's
 * scheme, and PUBLIC_URL's port when it names none (frontendHostOrigin), so that is
 * the port a bare entry stands for: under `https://auth.example.test:8443`,
 * `dup.example.test` and `dup.example.test:8443` are one origin, while
 * `tls.example.test:443` is another and keeps its port; under `https://auth.example.test`,
 * `ACME.test.`, `acme.test:443` and `acme.test` are all `https://acme.test`. Spelled
 * alike, the primary key of environment_frontend_hosts gives each origin to one
 * environment only. Stored hosts and the Host of each request (requestHostSpelling)
 * are spelled by this one function, so a lookup finds the environment whichever
 * spelling a client sends. It depends on PUBLIC_URL, which SQL cannot know: stored
 * hosts are re-spelled at boot (respellFrontendHosts).
 */
export function normalizeFrontendHost(input: string): string | null {
  const base = new URL(publicUrl());
  const trimmed = input.trim();
  const origin = normalizeOrigin(`${base.protocol}//${trimmed}`);
  if (!origin) return null;
  // Read before the URL parser, which drops the scheme's default port, and so would
  // hide `:443` under an https PUBLIC_URL on :8443 (another origin there).
  const written = /:(\d+)$/.exec(trimmed)?.[1];
  const port = written === undefined || Number(written) === effectivePort(base) ? "" : `:${Number(written)}`;
  const host = `${new URL(origin).hostname.replace(/\.$/, "")}${port}`;
  return HOST_PATTERN.test(host) ? host : null;
}

/**
 * A request's Host (`host[:port]`) in the spelling of frontend hosts, or null when no
 * frontend host can be spelled so. A Host names no port when the request came to its
 * scheme's default (RFC 9110 §7.2), which is PUBLIC_URL's scheme (behind a TLS proxy
 * the socket is plain http): that port is made explicit first, since to
 * normalizeFrontendHost a bare host means PUBLIC_URL's port, which may be another.
 */
export function requestHostSpelling(host: string): string | null {
  const trimmed = host.trim();
  if (/:\d*$/.test(trimmed)) return normalizeFrontendHost(trimmed);
  return normalizeFrontendHost(`${trimmed}:${new URL(publicUrl()).protocol === "https:" ? 443 : 80}`);
}

/**
 * Whether a request's host, as requestHost spells it, is PUBLIC_URL's own: Gatehouse's
 * host, where `pk` may name any environment even when it is also one's frontend host.
 * Compared in the one spelling: `localhost` and `localhost:3000` are one host there.
 */
export function isPublicUrlHost(host: string | null): boolean {
  return host !== null && host === requestHostSpelling(new URL(publicUrl()).host);
}

export const frontendHostSchema = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    const host = normalizeFrontendHost(value);
    if (host === null) {
      ctx.addIssue({ code: "custom", message: "must be a host name with an optional :port" });
      return z.NEVER;
    }
    return host;
  });
