import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import type { JsonObject } from "../json/deep-merge";
import { mergeSettings, readSettings, type EnvironmentSettings } from "./settings";

/**
 * Deep-merges a partial settings object into the environment's settings under a
 * row lock (two PATCHes never lose each other's keys) and returns the result.
 */
export async function updateEnvironmentSettings(
  db: Database,
  environmentId: string,
  patch: JsonObject,
  actor: Actor,
): Promise<EnvironmentSettings> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(environments).where(eq(environments.id, environmentId)).for("update");
    if (!row) throw new AppError("resource_not_found", "No such environment.");
    const settings = mergeSettings(readSettings(row.settings), patch);
    if (row.kind === "production" && !settings.rateLimits.enabled) {
      throw new AppError("invalid_request", "rateLimits.enabled: rate limits cannot be disabled in a production (pk_live_) environment.", {
        fieldErrors: [{ field: "rateLimits.enabled", code: "custom", message: "cannot be false in production" }],
      });
    }
    await tx.update(environments).set({ settings, updatedAt: new Date() }).where(eq(environments.id, environmentId));
    await recordEvent(tx, { environmentId, type: "environment.settings_updated", actor, data: { keys: Object.keys(patch) } });
    return settings;
  });
}
