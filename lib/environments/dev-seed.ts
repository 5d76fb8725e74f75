import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { dataDir } from "@/db/config";
import { isProduction, publicUrl } from "../config/runtime";
import { createEnvironment, type CreatedEnvironment } from "./create-environment";

function keysFile(): string {
  return path.join(dataDir(), "dev-environment.json");
}

/**
 * First start on an empty database, outside production: creates the development
 * application and environment, served on PUBLIC_URL's host, and keeps its keys in
 * the data folder (beside the generated master secret) so every local start can
 * print a working secret key. Production seeds nothing and prints no keys: a
 * well-known environment with keys in a file would be a door left open, and
 * production keys are shown once, by the CLI.
 */
export async function seedDevelopmentEnvironment(db: Database): Promise<{ created: boolean; environment: CreatedEnvironment | null }> {
  if (isProduction()) return { created: false, environment: null };
  // The dashboard's internal environment (created by `operator create` first, say) does not count.
  const [existing] = await db.select({ id: environments.id }).from(environments).where(eq(environments.internal, false)).limit(1);
  if (!existing) {
    const environment = await createEnvironment(db, {
      name: "Development",
      kind: "development",
      frontendHost: new URL(publicUrl()).host,
    });
    fs.mkdirSync(dataDir(), { recursive: true });
    fs.writeFileSync(keysFile(), JSON.stringify(environment, null, 2), { mode: 0o600 });
    return { created: true, environment };
  }
  const saved = fs.existsSync(keysFile()) ? (JSON.parse(fs.readFileSync(keysFile(), "utf8")) as CreatedEnvironment) : null;
  return { created: false, environment: saved };
}
