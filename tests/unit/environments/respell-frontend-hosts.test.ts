import { readFileSync } from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseHandle, getDb } from "@/db/client";
import { MIGRATIONS_FOLDER } from "@/db/migrate";
import { upgradeDatabase } from "@/lib/config/upgrade-database";
import { environmentFrontendHosts, environments } from "@/db/schema";
import { createEnvironment } from "@/lib/environments/create-environment";
import { respellFrontendHosts } from "@/lib/environments/respell-frontend-hosts";

/*
 * Stored frontend hosts in the one spelling new ones get (lib/environments/frontend-host.ts):
 * migration 0011 does what SQL can (case, trailing dot); which port a host may leave out is
 * PUBLIC_URL's, so the boot step that follows the migrations does the rest. This file has a
 * database of its own: the boot step spells every environment in it.
 */

const store = (environmentId: string, frontendHosts: string[]) => getDb().update(environments).set({ frontendHosts }).where(eq(environments.id, environmentId));

async function hostsOf(environmentId: string) {
  return (await getDb().select({ hosts: environments.frontendHosts }).from(environments).where(eq(environments.id, environmentId)))[0]?.hosts;
}

async function runMigration0011() {
  const migration = readFileSync(path.join(MIGRATIONS_FOLDER, "0011_normalize_frontend_hosts.sql"), "utf8");
  await getDb().transaction(async (tx) => {
    for (const statement of migration.split("--> statement-breakpoint")) await tx.execute(sql.raw(statement));
  });
}

/** Every environment's hosts, against the owners table the trigger keeps: they must agree. */
async function expectOwnersMirrorHosts() {
  const all = await getDb().select({ id: environments.id, hosts: environments.frontendHosts }).from(environments);
  const mirrored = await getDb().select().from(environmentFrontendHosts);
  expect(mirrored.map((row) => `${row.environmentId} ${row.host}`).sort()).toEqual(all.flatMap((env) => env.hosts.map((host) => `${env.id} ${host}`)).sort());
}

describe("stored frontend hosts are spelled for PUBLIC_URL after the migrations", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
  });

  it("regression (review #3): under a PUBLIC_URL with a port, the migration stripped :443 and :80 and kept PUBLIC_URL's own; now the boot step drops exactly PUBLIC_URL's port, the oldest keeps a shared host, one line names the loser", async () => {
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test:8443");
    const older = await createEnvironment(getDb(), { name: "Older", frontendHost: "legacy-older.example.test" });
    const newer = await createEnvironment(getDb(), { name: "Newer", frontendHost: "legacy-newer.example.test" });
    const ported = await createEnvironment(getDb(), { name: "Ported", frontendHost: "legacy-ported.example.test" });
    // What the old validator let through (an explicit port), and a direct write could (case, trailing dot).
    await store(older.environmentId, ["legacy.example.test:8443"]);
    await store(newer.environmentId, ["legacy-newer.example.test", "Legacy.Example.Test", "dotted.example.test.:443"]);
    await store(ported.environmentId, ["legacy-ported.example.test:8443", "legacy-ported.example.test", "plain.example.test:80"]);

    await runMigration0011();
    // SQL does not know PUBLIC_URL: ports stay as written, case and trailing dots go.
    expect(await hostsOf(older.environmentId)).toEqual(["legacy.example.test:8443"]);
    expect(await hostsOf(newer.environmentId)).toEqual(["legacy-newer.example.test", "legacy.example.test", "dotted.example.test:443"]);
    expect(await hostsOf(ported.environmentId)).toEqual(["legacy-ported.example.test:8443", "legacy-ported.example.test", "plain.example.test:80"]);
    await expectOwnersMirrorHosts();

    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await respellFrontendHosts(getDb());
    // :8443 is PUBLIC_URL's: `legacy.example.test:8443` is the bare name, which the newer environment also held.
    expect(await hostsOf(older.environmentId)).toEqual(["legacy.example.test"]);
    // :443 is another origin under a PUBLIC_URL on :8443, and keeps its port.
    expect(await hostsOf(newer.environmentId)).toEqual(["legacy-newer.example.test", "dotted.example.test:443"]);
    expect(await hostsOf(ported.environmentId)).toEqual(["legacy-ported.example.test", "plain.example.test:80"]);
    await expectOwnersMirrorHosts();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain(`of environment ${newer.environmentId}`);
    expect(String(warn.mock.calls[0]?.[0])).toContain(`environment ${older.environmentId} (older) holds`);

    // Idempotent: the next boot changes nothing and says nothing.
    await respellFrontendHosts(getDb());
    expect(await hostsOf(newer.environmentId)).toEqual(["legacy-newer.example.test", "dotted.example.test:443"]);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("under the default http://localhost:3000, a stored :3000 is the bare name and goes; two environments holding it keep one owner", async () => {
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    const first = await createEnvironment(getDb(), { name: "Dev first", frontendHost: "first.localhost" });
    const second = await createEnvironment(getDb(), { name: "Dev second", frontendHost: "second.localhost" });
    await store(first.environmentId, ["shared.localhost:3000"]);
    await store(second.environmentId, ["shared.localhost", "second.localhost:80"]);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    await respellFrontendHosts(getDb());
    expect(await hostsOf(first.environmentId)).toEqual(["shared.localhost"]);
    expect(await hostsOf(second.environmentId)).toEqual(["second.localhost:80"]);
    await expectOwnersMirrorHosts();
  });

  it("the server's boot step (upgradeDatabase) re-spells after the migrations, which have nothing left to do", async () => {
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test:9443");
    const booted = await createEnvironment(getDb(), { name: "Booted", frontendHost: "booted.example.test" });
    await store(booted.environmentId, ["Booted.Example.Test.:9443", "booted.example.test:443"]);
    await upgradeDatabase(databaseHandle());
    expect(await hostsOf(booted.environmentId)).toEqual(["booted.example.test", "booted.example.test:443"]);
    await expectOwnersMirrorHosts();
  });
});
