import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { preparedStatement } from "@/db/prepared";
import { apiKeys, environments } from "@/db/schema";
import { randomToken, sha256 } from "../crypto/tokens";
import { AppError } from "../errors";
import { logUnexpectedError } from "../log";
import { toEnvironmentContext, type EnvironmentContext } from "./context";

type EnvironmentKind = EnvironmentContext["kind"];

const SECRET_KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9_-]{20,100}$/;

function modeOf(kind: EnvironmentKind): "test" | "live" {
  return kind === "production" ? "live" : "test";
}

export function newPublishableKey(kind: EnvironmentKind): string {
  return `pk_${modeOf(kind)}_${randomToken(24)}`;
}

/**
 * Creates a secret key; the returned `secretKey` is the only time it exists in clear.
 * The dashboard's internal environment gets none (404, as if it did not exist): a
 * secret key there would manage the operators through the Server API.
 */
export async function createSecretKey(
  db: Database,
  environment: { id: string; kind: EnvironmentKind },
  label: string | null = null,
): Promise<{ id: string; secretKey: string; displayPrefix: string }> {
  const secretKey = `sk_${modeOf(environment.kind)}_${randomToken(32)}`;
  const displayPrefix = `${secretKey.slice(0, 12)}…`;
  const [target] = await db.select({ internal: environments.internal }).from(environments).where(eq(environments.id, environment.id)).limit(1);
  if (!target || target.internal) throw new AppError("resource_not_found", "No environment with this id.");
  const [row] = await db
    .insert(apiKeys)
    .values({ environmentId: environment.id, keyHash: sha256(secretKey), displayPrefix, label })
    .returning({ id: apiKeys.id });
  if (!row) throw new Error("insert returned no row");
  return { id: row.id, secretKey, displayPrefix };
}

export async function listSecretKeys(db: Database, environmentId: string) {
  return db
    .select({
      id: apiKeys.id,
      displayPrefix: apiKeys.displayPrefix,
      label: apiKeys.label,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.environmentId, environmentId))
    .orderBy(desc(apiKeys.createdAt));
}

/** Revokes a secret key at once; every later request with it gets 401. */
export async function revokeSecretKey(db: Database, keyId: string): Promise<{ id: string; environmentId: string }> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, environmentId: apiKeys.environmentId });
  if (!row) throw new AppError("resource_not_found", "No active secret key with this id.");
  return row;
}

/**
 * The environment behind `Authorization: Bearer sk_...`. The key is looked up by
 * its SHA-256, so the stored value never equals the presented one.
 */
export async function resolveSecretKey(
  db: Database,
  authorization: string | null,
): Promise<{ environment: EnvironmentContext; keyId: string }> {
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!presented || !SECRET_KEY_PATTERN.test(presented)) {
    throw new AppError("unauthorized", "Send a secret key as `Authorization: Bearer sk_...`.");
  }
  const byHash = preparedStatement(db, "environment_by_secret_key", (d) =>
    d
      .select({ keyId: apiKeys.id, environment: environments })
      .from(apiKeys)
      // The internal environment never has a key (createSecretKey); a planted row still opens nothing.
      .innerJoin(environments, and(eq(environments.id, apiKeys.environmentId), eq(environments.internal, false)))
      .where(and(eq(apiKeys.keyHash, sql.placeholder("keyHash")), isNull(apiKeys.revokedAt)))
      .limit(1)
      .prepare("environment_by_secret_key"),
  );
  const [row] = await byHash.execute({ keyHash: sha256(presented) });
  if (!row) throw new AppError("unauthorized", "The secret key is invalid or has been revoked.");
  await noteSecretKeyUse(db, row.keyId);
  return { environment: toEnvironmentContext(row.environment), keyId: row.keyId };
}

/** `last_used_at` is kept to the minute: a key used on every request is written once a minute, not per request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** When this process last wrote each key's `last_used_at`, so most requests skip the write altogether. */
const lastNoted = new Map<string, number>();

/**
 * Records that a secret key was just used: at most once a minute per key, by one
 * conditional UPDATE (other processes may have written it meanwhile), never failing
 * the request it serves: a failed write is logged and the request goes on.
 */
async function noteSecretKeyUse(db: Database, keyId: string): Promise<void> {
  const now = Date.now();
  if ((lastNoted.get(keyId) ?? 0) > now - LAST_USED_RESOLUTION_MS) return;
  if (lastNoted.size > 10_000) lastNoted.clear();
  lastNoted.set(keyId, now);
  try {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '1 minute'`))));
  } catch (error) {
    logUnexpectedError(`secret_key_last_used_${keyId}`, error);
  }
}
