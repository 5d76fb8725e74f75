import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** Runs the CLI exactly as the README says, against this test file's own database, with `env` over this process's. */
function cliWith(env: Record<string, string>, ...args: string[]) {
  return spawnSync("npm", ["run", "cli", "--", ...args], { encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env } });
}

function cli(...args: string[]) {
  return cliWith({}, ...args);
}

describe("npm run cli", () => {
  it("env create --json prints exactly one JSON line with the new keys", () => {
    const result = cli("env", "create", "--name", "Shop", "--host", "shop.example.test", "--json");
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0] ?? "");
    expect(Object.keys(created).sort()).toEqual(["applicationId", "environmentId", "frontendHost", "publishableKey", "secretKey"]);
    expect(created.publishableKey).toMatch(/^pk_test_/);
    expect(created.secretKey).toMatch(/^sk_test_/);
    expect(created.frontendHost).toBe("shop.example.test");

    const listed = JSON.parse(cli("env", "list", "--json").stdout);
    expect(listed.map((e: { environmentId: string }) => e.environmentId)).toContain(created.environmentId);

    const key = JSON.parse(cli("keys", "create-secret", created.environmentId, "--json").stdout);
    expect(key.secretKey).toMatch(/^sk_test_/);
    expect(key.secretKey).not.toBe(created.secretKey);

    const rotated = cli("keys", "rotate-signing", created.environmentId, "--json");
    expect(rotated.status).toBe(0);
    expect(JSON.parse(rotated.stdout).kid).toMatch(/^key_/);

    const revoked = cli("keys", "revoke", key.id);
    expect(revoked.status).toBe(0);
    const keys = JSON.parse(cli("keys", "list", created.environmentId, "--json").stdout);
    expect(keys.find((k: { id: string }) => k.id === key.id).revokedAt).not.toBeNull();
    expect(JSON.stringify(keys)).not.toContain(key.secretKey);
  });

  it("operator create --json prints a one-time sign-in link on PUBLIC_URL; list, link and remove manage operators", () => {
    const https = { PUBLIC_URL: "https://auth.example.test" };
    const created = cliWith(https, "operator", "create", "--email", "Grace@Example.com", "--role", "admin", "--json");
    expect(created.status).toBe(0);
    const lines = created.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const operator = JSON.parse(lines[0] ?? "");
    expect(Object.keys(operator).sort()).toEqual(["email", "expiresAt", "operatorId", "role", "signInUrl"]);
    expect(operator).toMatchObject({ email: "grace@example.com", role: "admin" });
    expect(operator.signInUrl).toMatch(/^https:\/\/auth\.example\.test\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/);

    const twice = cli("operator", "create", "--email", "grace@example.com", "--role", "viewer");
    expect(twice.status).toBe(1);
    expect(twice.stderr.trim()).toBe("cli: An operator with the address grace@example.com already exists.");
    const badRole = cli("operator", "create", "--email", "eve@example.com", "--role", "root");
    expect(badRole.status).toBe(1);

    const listed = JSON.parse(cli("operator", "list", "--json").stdout);
    expect(listed.find((row: { email: string }) => row.email === "grace@example.com")).toMatchObject({ role: "admin", passwordSet: false });

    const relinked = cli("operator", "link", "--email", "grace@example.com");
    expect(relinked.status).toBe(0);
    expect(relinked.stdout).toContain("/dashboard/set-password?token=");
    expect(relinked.stdout).not.toContain(operator.signInUrl);

    // The internal environment that holds the operators is neither listed nor given keys.
    const environments = JSON.parse(cli("env", "list", "--json").stdout) as { name: string }[];
    expect(environments.map((e) => e.name)).not.toContain("Operators");

    expect(cli("operator", "remove", "--email", "grace@example.com").status).toBe(0);
    expect(JSON.parse(cli("operator", "list", "--json").stdout).map((row: { email: string }) => row.email)).not.toContain("grace@example.com");
    expect(cli("operator", "remove", "--email", "grace@example.com").stderr.trim()).toBe("cli: No operator with the address grace@example.com.");
  });

  it("explains a wrong command and exits 2", () => {
    const result = cli("env", "explode");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "env explode"');
    expect(result.stderr).toContain("Usage: npm run cli");
  });

  it("regression: refuses a host another environment already serves, with a clear message", () => {
    expect(cli("env", "create", "--name", "Taken", "--host", "taken.example.test", "--json").status).toBe(0);
    const result = cli("env", "create", "--name", "Squatter", "--host", "taken.example.test", "--json");
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim()).toBe("cli: The frontend host taken.example.test already serves another environment; choose another host.");
  });

  it("regression: refuses a host another environment holds in another spelling (default port, case, trailing dot)", () => {
    const https = { PUBLIC_URL: "https://auth.example.test" };
    const first = cliWith(https, "env", "create", "--name", "Spelled", "--host", "Spelled.Example.Test:443", "--json");
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout).frontendHost).toBe("spelled.example.test");
    for (const spelling of ["spelled.example.test", "SPELLED.example.test.:443"]) {
      const result = cliWith(https, "env", "create", "--name", "Squatter", "--host", spelling, "--json");
      expect(result.status, spelling).toBe(1);
      expect(result.stderr.trim()).toBe("cli: The frontend host spelled.example.test already serves another environment; choose another host.");
    }
  });

  it("refuses a bad host with a clear message", () => {
    const result = cli("env", "create", "--name", "X", "--host", "not a host/");
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/host/);
  });
});
