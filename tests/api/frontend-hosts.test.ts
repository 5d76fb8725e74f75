import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
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

/** The error a creation ends with, or the created environment. */
async function created(frontendHost: string) {
  return createEnvironment(getDb(), { name: `Env ${frontendHost}`, frontendHost }).catch((error: unknown) => error);
}

function expectTaken(result: unknown, host: string) {
  expect(result, `${host} should be refused`).toBeInstanceOf(AppError);
  expect((result as AppError).code).toBe("identifier_exists");
  expect((result as AppError).status).toBe(409);
}

/** The issuer host the client API gives a request with this Host: which environment it found. */
async function servedBy(host: string): Promise<string | null> {
  const res = await call("GET", "/.well-known/openid-configuration", { headers: { host } });
  return res.status === 200 ? new URL(res.body.issuer).host : null;
}

/*
 * A host string is one origin under PUBLIC_URL's scheme (frontendHostOrigin): case, a
 * trailing dot, Unicode against punycode and the scheme's default port do not make
 * another one, so they must not make another environment's host either (issue 16).
 */
describe("frontend hosts are unique as origins, not as strings", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("regression: a host another environment holds in another spelling (default port, case, trailing dot, IDNA) is 409 identifier_exists", async () => {
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test");
    const first = (await created("Spelled.Example.Test.:443")) as Awaited<ReturnType<typeof createEnvironment>>;
    expect(first.frontendHost).toBe("spelled.example.test");
    for (const spelling of ["spelled.example.test", "spelled.example.test:443", "SPELLED.example.test.", "spelled.example.test.:443"]) {
      expectTaken(await created(spelling), spelling);
    }
    const idna = (await created("bücher.example.test")) as Awaited<ReturnType<typeof createEnvironment>>;
    expect(idna.frontendHost).toBe("xn--bcher-kva.example.test");
    for (const spelling of ["XN--BCHER-KVA.example.test", "BÜCHER.example.test:443"]) expectTaken(await created(spelling), spelling);
    // Only the scheme's default port is dropped: https on :80 or :8443 is another origin.
    expect(((await created("spelled.example.test:80")) as { frontendHost: string }).frontendHost).toBe("spelled.example.test:80");
    expect(await getDb().select().from(environmentFrontendHosts).where(eq(environmentFrontendHosts.host, "spelled.example.test"))).toHaveLength(1);
  });

  it("drops only PUBLIC_URL's own port: :3000 under http://localhost:3000, not :80 or :443", async () => {
    vi.stubEnv("PUBLIC_URL", "http://localhost:3000");
    expect(((await created("plain.example.test:3000")) as { frontendHost: string }).frontendHost).toBe("plain.example.test");
    expectTaken(await created("PLAIN.example.test"), "PLAIN.example.test");
    expect(((await created("plain.example.test:80")) as { frontendHost: string }).frontendHost).toBe("plain.example.test:80");
    expect(((await created("plain.example.test:443")) as { frontendHost: string }).frontendHost).toBe("plain.example.test:443");
  });

  it("regression (review #3): under a PUBLIC_URL with a port, dup.example.test and dup.example.test:8443 went to two environments and tls.example.test:443 lost its port; now one origin is one host", async () => {
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test:8443");
    const dup = (await created("dup.example.test")) as Awaited<ReturnType<typeof createEnvironment>>;
    expect(dup.frontendHost).toBe("dup.example.test");
    for (const spelling of ["dup.example.test:8443", "DUP.example.test.:8443"]) expectTaken(await created(spelling), spelling);
    const tls = (await created("tls.example.test:443")) as Awaited<ReturnType<typeof createEnvironment>>;
    expect(tls.frontendHost).toBe("tls.example.test:443");
    // :443 is another origin than the bare name (which means :8443 here).
    expect(((await created("tls.example.test")) as { frontendHost: string }).frontendHost).toBe("tls.example.test");

    const issuerFor = async (host: string) => (await call("GET", "/.well-known/openid-configuration", { headers: { host } })).body.issuer;
    expect(await issuerFor("dup.example.test:8443")).toBe("https://dup.example.test:8443/_svc");
    // A browser on the default port names none: it is the :443 entry's, whose issuer carries no port.
    expect(await issuerFor("tls.example.test")).toBe("https://tls.example.test/_svc");
    expect(await issuerFor("tls.example.test:443")).toBe("https://tls.example.test/_svc");
    expect(await issuerFor("tls.example.test:8443")).toBe("https://tls.example.test:8443/_svc");
  });

  it("refuses what no spelling makes a host name", async () => {
    for (const input of ["acme.test/path", "user@acme.test", "acme..test", "acme.test:99999", "[::1]", "*.acme.test", "acme test"]) {
      const result = await created(input);
      expect(result, input).toBeInstanceOf(Error);
      expect(result, input).not.toBeInstanceOf(AppError);
    }
  });

  it("regression: a request's Host in another spelling finds the environment (Host: ACME.test.)", async () => {
    vi.stubEnv("PUBLIC_URL", "https://auth.example.test");
    await createEnvironment(getDb(), { name: "Spelled Host", frontendHost: "acme.example.test" });
    for (const host of ["acme.example.test", "ACME.example.test.", "acme.example.test:443", "Acme.Example.Test.:443"]) {
      expect(await servedBy(host), host).toBe("acme.example.test");
    }
    expect(await servedBy("acme.example.test..")).toBeNull();
  });
});
