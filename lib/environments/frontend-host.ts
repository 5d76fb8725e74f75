import { z } from "zod";
import { publicUrl } from "../config/runtime";
import { normalizeOrigin } from "./allowed-origins";

/** A host name of ASCII labels (at most 253 characters) with an optional :port. */
const HOST_PATTERN = /^(?=.{1,253}(:|$))[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

/**
 * A frontend host (`host[:port]`) in its one spelling, or null when it is none: lower
 * case, IDNA as punycode ASCII, no trailing dot, and no port when it is the default
 * of PUBLIC_URL's scheme (:443 under https, :80 under http), since an entry's origin
 * takes that scheme (frontendHostOrigin). `ACME.test.`, `acme.test:443` and
 * `acme.test` are all `https://acme.test` there: spelled alike, the primary key of
 * environment_frontend_hosts gives that origin to one environment only. Stored hosts
 * and the Host of each request are spelled by this one function, so a lookup finds
 * the environment whichever spelling a client sends.
 */
export function normalizeFrontendHost(input: string): string | null {
  const origin = normalizeOrigin(`${new URL(publicUrl()).protocol}//${input.trim()}`);
  if (!origin) return null;
  const { hostname, port } = new URL(origin);
  const host = `${hostname.replace(/\.$/, "")}${port ? `:${port}` : ""}`;
  return HOST_PATTERN.test(host) ? host : null;
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
