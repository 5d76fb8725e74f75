import fs from "node:fs";
import path from "node:path";
import type { Database } from "@/db/client";
import { environments } from "@/db/schema";
import { dataDir, publicUrl } from "../config/runtime";
import { createEnvironment, type CreatedEnvironment } from "./create-environment";

function keysFile(): string {
  return path.join(dataDir(), "dev-environment.json");
}

/**
 * First start on an empty database: creates the development application and
 * environment, served on PUBLIC_URL's host. Its keys are kept in the data folder
 * (beside the generated master secret) only in development, so every local start
 * can print a working secret key; production keys are shown once, by the CLI.
 */
export async function seedDevelopmentEnvironment(
  db: Database,
  options: { keepKeys: boolean },
): Promise<{ created: boolean; environment: CreatedEnvironment | null }> {
  const [existing] = await db.select({ id: environments.id }).from(environments).limit(1);
  if (!existing) {
    const environment = await createEnvironment(db, {
      name: "Development",
      kind: "development",
      frontendHost: new URL(publicUrl()).host,
    });
    if (options.keepKeys) {
      fs.mkdirSync(dataDir(), { recursive: true });
      fs.writeFileSync(keysFile(), JSON.stringify(environment, null, 2), { mode: 0o600 });
    }
    return { created: true, environment };
  }
  const saved = options.keepKeys && fs.existsSync(keysFile()) ? (JSON.parse(fs.readFileSync(keysFile(), "utf8")) as CreatedEnvironment) : null;
  return { created: false, environment: saved };
}
