import { and, count, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { apiKeys, environments } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { createSecretKey, listSecretKeys } from "./api-keys";
import type { EnvironmentContext } from "./context";

const timestamp = z.iso.datetime();

export const secretKeySchema = z
  .object({
    id: z.uuid(),
    label: z.string().nullable(),
    displayPrefix: z.string().meta({ description: "The key's first characters, to recognise it; never the key." }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().meta({ description: "When a request last presented the key, to the minute; null if never." }),
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: "SecretKey" });

export const secretKeyListSchema = z.object({ items: z.array(secretKeySchema) }).meta({ id: "SecretKeyList" });

export const createdSecretKeySchema = secretKeySchema
  .extend({ secret: z.string().meta({ description: "The secret key `sk_test_…`/`sk_live_…`: shown in this answer only, stored as a hash." }) })
  .meta({ id: "CreatedSecretKey" });

export const createSecretKeyBody = z
  .strictObject({
    label: z
      .string()
      .trim()
      .max(100)
      .regex(/^[^\p{Cc}]*$/u, "must not contain control characters")
      .optional()
      .meta({ description: "A name to recognise the key by (\"billing worker\")." }),
  })
  .meta({ id: "CreateSecretKeyRequest" });

export const secretKeyParams = z.object({ keyId: z.uuid() });

type SecretKeyRow = Awaited<ReturnType<typeof listSecretKeys>>[number];

function toSecretKey(row: SecretKeyRow): z.output<typeof secretKeySchema> {
  return {
    id: row.id,
    label: row.label,
    displayPrefix: row.displayPrefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

/** The environment's secret keys, newest first, revoked ones included; never a key itself. An environment holds a handful. */
export async function listEnvironmentSecretKeys(db: Database, environmentId: string) {
  return { items: (await listSecretKeys(db, environmentId)).map(toSecretKey) };
}

/** A new secret key and its event, in one transaction; the answer is the only time the key exists in clear. */
export async function createEnvironmentSecretKey(db: Database, environment: EnvironmentContext, label: string | undefined, actor: Actor) {
  return db.transaction(async (tx) => {
    const created = await createSecretKey(tx, environment, label || null);
    await recordEvent(tx, { environmentId: environment.id, type: "api_key.created", actor, data: { keyId: created.id } });
    const [row] = (await listSecretKeys(tx, environment.id)).filter((key) => key.id === created.id);
    if (!row) throw new Error("the new key is not listed");
    return { ...toSecretKey(row), secret: created.secretKey };
  });
}

/**
 * Revokes one of the environment's secret keys; the next request with it gets 401. A
 * key of another environment, an unknown or an already revoked one is 404. The last
 * active key is refused (409 last_secret_key): revoking it would lock the back-end
 * out of the Server API, create a new key first. The environment row is locked so
 * two concurrent revocations of its last two keys cannot both pass the check.
 */
export async function revokeEnvironmentSecretKey(db: Database, environmentId: string, keyId: string, actor: Actor) {
  return db.transaction(async (tx) => {
    await tx.select({ id: environments.id }).from(environments).where(eq(environments.id, environmentId)).for("update");
    const active = and(eq(apiKeys.environmentId, environmentId), isNull(apiKeys.revokedAt));
    const [target] = await tx.select({ id: apiKeys.id }).from(apiKeys).where(and(active, eq(apiKeys.id, keyId)));
    if (!target) throw new AppError("resource_not_found", "No active secret key with this id in this environment.");
    const [others] = await tx.select({ n: count() }).from(apiKeys).where(and(active, ne(apiKeys.id, keyId)));
    if (!others || others.n === 0) {
      throw new AppError("last_secret_key", "This is the environment's last active secret key; create another one before revoking it.");
    }
    await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, keyId));
    await recordEvent(tx, { environmentId, type: "api_key.revoked", actor, data: { keyId } });
    const [row] = (await listSecretKeys(tx, environmentId)).filter((key) => key.id === keyId);
    if (!row) throw new Error("the revoked key is not listed");
    return toSecretKey(row);
  });
}
