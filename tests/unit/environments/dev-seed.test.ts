import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { environments } from "@/db/schema";
import { seedDevelopmentEnvironment } from "@/lib/environments/dev-seed";

describe("seedDevelopmentEnvironment", () => {
  const saved = { mode: process.env.GATEHOUSE_MODE, dataDir: process.env.DATA_DIR };
  // The keys file goes to the data folder: a throw-away one, never the checkout's ./.data.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "gh-seed-"));
  afterEach(() => {
    if (saved.mode === undefined) delete process.env.GATEHOUSE_MODE;
    else process.env.GATEHOUSE_MODE = saved.mode;
    if (saved.dataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = saved.dataDir;
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  // Open this file's database before DATA_DIR points elsewhere: under PGlite the
  // database lives in DATA_DIR, and a first getDb() after the switch would open an empty one.
  beforeAll(async () => {
    await getDb().select({ id: environments.id }).from(environments).limit(1);
  });

  it("regression: seeds nothing and returns no keys in production, even on an empty database", async () => {
    process.env.GATEHOUSE_MODE = "production";
    process.env.DATA_DIR = dataDir;
    expect(await getDb().select().from(environments)).toHaveLength(0);
    expect(await seedDevelopmentEnvironment(getDb())).toEqual({ created: false, environment: null });
    expect(await getDb().select().from(environments)).toHaveLength(0);
    expect(fs.existsSync(path.join(dataDir, "dev-environment.json"))).toBe(false);
  });

  it("seeds the development environment once outside production and prints its saved keys later", async () => {
    process.env.GATEHOUSE_MODE = "development";
    process.env.DATA_DIR = dataDir;
    const first = await seedDevelopmentEnvironment(getDb());
    expect(first.created).toBe(true);
    const again = await seedDevelopmentEnvironment(getDb());
    expect(again).toEqual({ created: false, environment: first.environment });
  });
});
