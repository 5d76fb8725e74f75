import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb } from "@/db/client";
import { adminDatabaseUrl, uniqueName, withAdmin, withDatabaseName } from "./test-database";

// Every test file gets a database of its own, copied from the migrated template,
// so files run in parallel without seeing each other's rows.
process.env.GATEHOUSE_SECRET = "test-master-secret-that-is-long-enough-0123456789";
const template = inject("postgresTemplate");
const adminUrl = adminDatabaseUrl();

if (template && adminUrl && process.env.GATEHOUSE_TEST_DB !== "pglite") {
  const name = uniqueName("gh_t");
  await withAdmin(adminUrl, async (sql) => {
    // Concurrent copies of one template can collide briefly; retry a few times.
    for (let attempt = 0; ; attempt++) {
      try {
        await sql.unsafe(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (error) {
        if (attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  });
  process.env.DATABASE_URL = withDatabaseName(adminUrl, name);
  afterAll(async () => {
    await closeDb();
    await withAdmin(adminUrl, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gh-pglite-"));
  fs.cpSync(inject("pgliteTemplate"), dir, { recursive: true });
  process.env.DATA_DIR = dir;
  delete process.env.DATABASE_URL;
  afterAll(async () => {
    await closeDb();
    fs.rmSync(dir, { recursive: true, force: true });
  });
}
