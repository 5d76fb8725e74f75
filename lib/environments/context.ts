import { and, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { readSettings, type EnvironmentSettings } from "./settings";

/** The tenant a request acts in, resolved once by the route wrapper. */
export interface EnvironmentContext {
  id: string;
  applicationId: string;
  name: string;
  kind: "development" | "production";
  publishableKey: string;
  frontendHosts: string[];
  allowedOrigins: string[];
  settings: EnvironmentSettings;
  /**
   * The dashboard's own environment, whose users are the operators
   * (lib/operators/internal-environment.ts); absent or false for every customer one.
   */
  internal?: boolean;
}

type EnvironmentRow = typeof environments.$inferSelect;

/**
 * Parsed settings by environment, reused while the stored JSON is the same: the row
 * is still read on every request, only the zod parse of an unchanged value is saved.
 */
const parsedSettings = new Map<string, { stored: string; settings: EnvironmentSettings }>();

function settingsOf(row: EnvironmentRow): EnvironmentSettings {
  const stored = JSON.stringify(row.settings);
  const cached = parsedSettings.get(row.id);
  if (cached?.stored === stored) return cached.settings;
  const settings = readSettings(row.settings);
  parsedSettings.set(row.id, { stored, settings });
  return settings;
}

export function toEnvironmentContext(row: EnvironmentRow): EnvironmentContext {
  return {
    id: row.id,
    applicationId: row.applicationId,
    name: row.name,
    kind: row.kind,
    publishableKey: row.publishableKey,
    frontendHosts: row.frontendHosts,
    allowedOrigins: row.allowedOrigins,
    settings: settingsOf(row),
    internal: row.internal,
  };
}

export async function findEnvironment(db: Database, id: string): Promise<EnvironmentContext | null> {
  const [row] = await db.select().from(environments).where(eq(environments.id, id)).limit(1);
  return row ? toEnvironmentContext(row) : null;
}

/**
 * A customer environment by id, for a caller that names one (the dashboard's
 * environment switcher): null for the dashboard's internal environment, whose
 * users are the operators and which no Server API operation may reach.
 */
export async function findCustomerEnvironment(db: Database, id: string): Promise<EnvironmentContext | null> {
  const [row] = await db
    .select()
    .from(environments)
    .where(and(eq(environments.id, id), eq(environments.internal, false)))
    .limit(1);
  return row ? toEnvironmentContext(row) : null;
}
