import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { adminDatabaseUrl, uniqueName, withAdmin, withDatabaseName } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    postgresTemplate: string | null;
    pgliteTemplate: string;
  }
}

/**
 * Migrates each kind of database once per run; every test file then starts from a
 * copy (CREATE DATABASE ... TEMPLATE, or a copied PGlite folder) in well under a second.
 */
export default async function setup(project: TestProject) {
  const adminUrl = adminDatabaseUrl();
  let postgresTemplate: string | null = null;
  if (adminUrl && project.name !== "embedded") {
    postgresTemplate = uniqueName("gh_tpl");
    await withAdmin(adminUrl, (sql) => sql.unsafe(`CREATE DATABASE ${postgresTemplate}`));
    const handle = openDatabase({ url: withDatabaseName(adminUrl, postgresTemplate), poolSize: 1 });
    await migrateDatabase(handle);
    await handle.close();
  }

  const pgliteTemplate = fs.mkdtempSync(path.join(os.tmpdir(), "gh-pglite-tpl-"));
  if (!postgresTemplate) {
    const previous = process.env.DATA_DIR;
    process.env.DATA_DIR = pgliteTemplate;
    const handle = openDatabase({ url: "" });
    await migrateDatabase(handle);
    await handle.close();
    process.env.DATA_DIR = previous;
  }

  project.provide("postgresTemplate", postgresTemplate);
  project.provide("pgliteTemplate", pgliteTemplate);

  return async () => {
    fs.rmSync(pgliteTemplate, { recursive: true, force: true });
    if (adminUrl && postgresTemplate) {
      await withAdmin(adminUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`));
    }
  };
}
