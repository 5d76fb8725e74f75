import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("npm start in production", () => {
  it("refuses to start without GATEHOUSE_SECRET, with a one-line reason", () => {
    const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: "production", PUBLIC_URL: "https://auth.example.com" };
    delete env.GATEHOUSE_SECRET;
    delete env.GATEHOUSE_MODE;
    const result = spawnSync("node_modules/.bin/tsx", ["scripts/start.ts"], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gatehouse: cannot start: GATEHOUSE_SECRET is not set/);
  });

  it("refuses a plain-http PUBLIC_URL", () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      GATEHOUSE_SECRET: "k3Jq9vX2mP8wR5tY7uI0oL4aS6dF1gH3jK5lZ8xC0vB2nM4q",
      PUBLIC_URL: "http://auth.example.com",
    };
    delete env.GATEHOUSE_MODE;
    const result = spawnSync("node_modules/.bin/tsx", ["scripts/start.ts"], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/PUBLIC_URL must be an https:\/\/ URL/);
  });

  it("regression: refuses the default outbox transport without DEV_MAILBOX=1, with a one-line reason", () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      NODE_ENV: "production",
      GATEHOUSE_SECRET: "k3Jq9vX2mP8wR5tY7uI0oL4aS6dF1gH3jK5lZ8xC0vB2nM4q",
      PUBLIC_URL: "https://auth.example.com",
    };
    for (const name of ["GATEHOUSE_MODE", "EMAIL_TRANSPORT", "DEV_MAILBOX"]) delete env[name];
    const result = spawnSync("node_modules/.bin/tsx", ["scripts/start.ts"], { env: env as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gatehouse: cannot start: EMAIL_TRANSPORT is outbox/);
  });
});
