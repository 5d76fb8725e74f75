import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";

export const MAX_ALLOWED_ORIGINS = 100;

/** Schemes that execute or read local content when navigated to; never an app's origin. */
const FORBIDDEN_SCHEMES = new Set(["javascript", "data", "vbscript", "file", "blob", "about"]);

/**
 * `scheme://host[:port]` in canonical form: lower case, default port dropped, no
 * path, query, fragment or credentials. Any scheme is allowed (`myapp://callback`
 * for native apps). Returns null for anything that is not exactly an origin.
 */
export function normalizeOrigin(input: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s\\]+)\/?$/i.exec(input.trim());
  if (!match) return null;
  const [, scheme = "", authority = ""] = match;
  if (FORBIDDEN_SCHEMES.has(scheme.toLowerCase())) return null;
  let url: URL;
  try {
    url = new URL(`${scheme.toLowerCase()}://${authority}`);
  } catch {
    return null;
  }
  // Entries are compared as exact strings, so a wildcard could never match: refuse it rather than store a dead entry.
  if (!url.hostname || url.username || url.password || url.hostname.includes("*")) return null;
  const host = url.hostname.toLowerCase();
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}`;
}

export const allowedOriginsBody = z
  .strictObject({
    origins: z
      .array(z.string().max(2048))
      .max(MAX_ALLOWED_ORIGINS, `must list at most ${MAX_ALLOWED_ORIGINS} origins`)
      .transform((origins, ctx) => {
        const normalized: string[] = [];
        origins.forEach((origin, index) => {
          const value = normalizeOrigin(origin);
          if (value) normalized.push(value);
          else ctx.addIssue({ code: "custom", path: [index], message: "must be an origin like https://app.example.com or myapp://host, with no path" });
        });
        return [...new Set(normalized)];
      }),
  })
  .meta({ id: "AllowedOriginsRequest" });

export const allowedOriginsSchema = z
  .object({ origins: z.array(z.string()) })
  .meta({ id: "AllowedOrigins", description: "Full origins, normalised and deduplicated, including non-http schemes." });

/** Replaces the whole list. */
export async function replaceAllowedOrigins(
  db: Database,
  environmentId: string,
  origins: string[],
  actor: Actor,
): Promise<{ origins: string[] }> {
  return db.transaction(async (tx) => {
    await tx.update(environments).set({ allowedOrigins: origins, updatedAt: new Date() }).where(eq(environments.id, environmentId));
    await recordEvent(tx, { environmentId, type: "environment.allowed_origins_replaced", actor, data: { origins } });
    return { origins };
  });
}
