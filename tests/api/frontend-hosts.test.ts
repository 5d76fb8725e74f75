import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { environmentFrontendHosts, environments } from "@/db/schema";
import { createEnvironment } from "@/lib/environments/create-environment";
import { AppError } from "@/lib/errors";
import { call } from "../helpers/api";

/**
 * A Host names at most one environment (issue 7, item 6): otherwise a request on a
 * shared host would reach whichever tenant the database returned first, with its
 * pages, cookies and keys.
 */
describe("frontend hosts are unique across environments", () => {
  it("regression: a second environment cannot take a host another one serves (409 identifier_exists)", async () => {
    await createEnvironment(getDb(), { name: "First", frontendHost: "shared.example.test" });
    const second = await createEnvironment(getDb(), { name: "Second", frontendHost: "Shared.Example.Test" }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(AppError);
    expect((second as AppError).code).toBe("identifier_exists");
    expect((second as AppError).status).toBe(409);
    expect((second as AppError).message).toMatch(/shared\.example\.test already serves another environment/);
    const named = await getDb().select({ id: environments.id }).from(environments).where(eq(environments.name, "Second"));
    expect(named).toHaveLength(0);
  });

  it("regression: concurrent creations with one host: exactly one wins, the database decides", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => createEnvironment(getDb(), { name: `Racer ${i}`, frontendHost: "race.example.test" })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect((result.reason as AppError).code).toBe("identifier_exists");
    }
    const owners = await getDb().select().from(environmentFrontendHosts).where(eq(environmentFrontendHosts.host, "race.example.test"));
    expect(owners).toHaveLength(1);
  });

  it("the database refuses a taken host from any writer of frontend_hosts, and frees a host its environment drops", async () => {
    const owner = await createEnvironment(getDb(), { name: "Owner", frontendHost: "owned.example.test" });
    const other = await createEnvironment(getDb(), { name: "Other", frontendHost: "other.example.test" });
    await expect(
      getDb().update(environments).set({ frontendHosts: ["other.example.test", "owned.example.test"] }).where(eq(environments.id, other.environmentId)),
    ).rejects.toThrow();

    await getDb().update(environments).set({ frontendHosts: ["owned-2.example.test"] }).where(eq(environments.id, owner.environmentId));
    await getDb().update(environments).set({ frontendHosts: ["other.example.test", "owned.example.test"] }).where(eq(environments.id, other.environmentId));
    const hosts = await getDb().select().from(environmentFrontendHosts).where(eq(environmentFrontendHosts.environmentId, other.environmentId));
    expect(hosts.map((row) => row.host).sort()).toEqual(["other.example.test", "owned.example.test"]);
  });

  it("a host with an explicit port is its own entry, and the environment that lists the exact host:port serves it", async () => {
    const bare = await createEnvironment(getDb(), { name: "Bare", frontendHost: "ports.example.test" });
    const withPort = await createEnvironment(getDb(), { name: "With port", frontendHost: "ports.example.test:8443" });
    const served = async (host: string) => {
      const res = await call("GET", "/.well-known/openid-configuration", { headers: { host } });
      expect(res.status, res.text).toBe(200);
      return new URL(res.body.issuer).host;
    };
    expect(withPort.frontendHost).toBe("ports.example.test:8443");
    expect(await served("ports.example.test:8443")).toBe("ports.example.test:8443");
    // Any other port falls back to the bare entry, whose issuer carries PUBLIC_URL's port.
    expect(bare.frontendHost).toBe("ports.example.test");
    expect(await served("ports.example.test:9000")).toMatch(/^ports\.example\.test(:\d+)?$/);
    expect(await served("ports.example.test:9000")).not.toBe("ports.example.test:8443");
  });
});
