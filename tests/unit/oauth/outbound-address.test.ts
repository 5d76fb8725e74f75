import type { LookupAddress } from "node:dns";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch, hostProblem, isPublicAddress, outboundHostProblem, providerFetch, type ResolveAll } from "@/lib/oauth/outbound-address";
import { startCountingServer, type CountingServer } from "../../helpers/counting-server";

const previous = { mode: process.env.GATEHOUSE_MODE, privateHosts: process.env.OAUTH_PRIVATE_HOSTS };
afterEach(() => {
  if (previous.mode === undefined) delete process.env.GATEHOUSE_MODE;
  else process.env.GATEHOUSE_MODE = previous.mode;
  if (previous.privateHosts === undefined) delete process.env.OAUTH_PRIVATE_HOSTS;
  else process.env.OAUTH_PRIVATE_HOSTS = previous.privateHosts;
});

let server: CountingServer;
beforeAll(async () => {
  server = await startCountingServer();
});
afterAll(() => server.close());

/** A resolver that knows only the given names: what a hostile DNS server may answer. */
function resolverOf(answers: Record<string, LookupAddress[]>): ResolveAll {
  return (hostname, _options, callback) => {
    const addresses = answers[hostname];
    if (addresses) callback(null, addresses);
    else callback(Object.assign(new Error(`${hostname} not found`), { code: "ENOTFOUND" }), []);
  };
}

/** The error a fetch failed with, looking through undici's "fetch failed" to its cause. */
async function refusal(promise: Promise<unknown>): Promise<{ name?: string; message?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as Error & { cause?: Error },
  );
  expect(error).not.toBeNull();
  return error?.cause ?? error ?? {};
}

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local (metadata), CGNAT, unspecified and multicast IPv4", () => {
    for (const address of ["127.0.0.1", "127.255.255.254", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "100.127.255.255", "0.0.0.0", "224.0.0.1", "255.255.255.255"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["8.8.8.8", "93.184.216.34", "172.32.0.1", "172.15.255.255", "100.128.0.1", "192.169.0.1", "11.0.0.1"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("refuses IPv6 loopback, unspecified, unique local, link-local, and IPv4-mapped private addresses", () => {
    for (const address of ["::1", "::", "fc00::1", "fd12:3456::1", "fe80::1", "febf::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1"]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["2606:4700:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("regression (follow-up finding 4): IPv4 carried in NAT64, 6to4 and IPv4-translated addresses is judged by the IPv4 rules", () => {
    for (const address of [
      "64:ff9b::169.254.169.254",
      "64:ff9b::a9fe:a9fe",
      "64:FF9B:0:0:0:0:7F00:0001",
      "64:ff9b::10.0.0.1",
      "64:ff9b:1::192.168.1.1",
      "64:ff9b:1::a00:1",
      "2002:a9fe:a9fe::",
      "2002:7f00:1::1",
      "2002:c0a8:101:1234::1",
      "::ffff:0:127.0.0.1",
      "::ffff:0:a00:1",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    // A public IPv4 address behind them stays reachable: an IPv6-only host with DNS64 sees every provider so.
    for (const address of ["64:ff9b::8.8.8.8", "64:ff9b::5db8:d822", "64:ff9b:1::8.8.8.8", "2002:808:808::1", "::ffff:0:8.8.8.8"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("regression (follow-up finding 4): refuses Teredo, the local-use NAT64 prefix's other forms, and reserved IPv4 and IPv6 ranges", () => {
    for (const address of [
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
      "2001::1",
      "64:ff9b:1:a00:100::", // RFC 6052 /48 form: its IPv4 bits are not the last 32
      "fec0::1",
      "feff::1",
      "100::1",
      "100::ffff:ffff:ffff:ffff",
      "2001:db8::1",
      "2001:db8:ffff::1",
      "198.18.0.1",
      "198.19.255.255",
      "192.0.0.1",
      "192.0.0.170",
      "192.0.2.1",
      "198.51.100.1",
      "203.0.113.1",
      "fe80::1%eth0",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    for (const address of ["2001:4860:4860::8888", "2001:200::1", "198.17.255.255", "198.20.0.1", "192.0.1.1"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it("a name is not an address", () => {
    expect(isPublicAddress("example.com")).toBe(false);
  });
});

describe("hostProblem (a URL's hostname, before DNS)", () => {
  it("judges IP literals in every spelling the URL parser accepts", () => {
    for (const url of ["https://127.0.0.1", "https://2130706433", "https://0x7f.1", "https://[::1]", "https://[::ffff:127.0.0.1]", "https://10.1.2.3:8443", "https://169.254.169.254", "https://[fe80::1]", "https://0.0.0.0", "https://[64:ff9b::169.254.169.254]", "https://[2002:a9fe:a9fe::]"]) {
      expect(hostProblem(new URL(url).hostname), url).toMatch(/non-public address/);
    }
    for (const url of ["https://8.8.8.8", "https://[2606:4700:4700::1111]"]) expect(hostProblem(new URL(url).hostname), url).toBeNull();
  });

  it("refuses localhost, *.localhost and *.internal names, with or without the trailing dot", () => {
    for (const host of ["localhost", "LOCALHOST", "localhost.", "idp.localhost", "metadata.google.internal", "internal", "svc.internal."]) {
      expect(hostProblem(host), host).toMatch(/local or internal host/);
    }
    for (const host of ["idp.example", "localhost.example.com", "internal.example.com", "mylocalhost"]) expect(hostProblem(host), host).toBeNull();
  });
});

describe("outboundHostProblem (provider create and update)", () => {
  it("in production refuses what hostProblem refuses and names that resolve to loopback; lets an unresolvable name through", async () => {
    process.env.GATEHOUSE_MODE = "production";
    expect(await outboundHostProblem("localhost")).toMatch(/local or internal host/);
    expect(await outboundHostProblem("[::1]")).toMatch(/non-public address/);
    expect(await outboundHostProblem("idp.invalid")).toBeNull();
  });

  it("outside production refuses nothing (local and test providers run on loopback)", async () => {
    process.env.GATEHOUSE_MODE = "development";
    for (const host of ["localhost", "127.0.0.1", "10.0.0.1", "metadata.google.internal"]) expect(await outboundHostProblem(host), host).toBeNull();
  });
});

describe("providerFetch / guardedFetch (every request toward a provider)", () => {
  it("in production never connects to a loopback IP literal or local name", async () => {
    process.env.GATEHOUSE_MODE = "production";
    for (const host of ["127.0.0.1", "[::1]", "localhost", "[::ffff:127.0.0.1]"]) {
      const error = await refusal(providerFetch(`http://${host}:${server.port}/.well-known/openid-configuration`, { method: "GET", headers: {}, body: undefined, redirect: "manual" }));
      expect(error.name, host).toBe("OutboundAddressRefused");
    }
    expect(server.connections).toBe(0);
  });

  it("connects to the address its own lookup checked: a name resolving to loopback is refused in production, reached outside it", async () => {
    const fetchVia = guardedFetch(resolverOf({ "idp.test": [{ address: "127.0.0.1", family: 4 }] }));
    const request = () => fetchVia(`http://idp.test:${server.port}/jwks`, { method: "GET", headers: {}, body: undefined, redirect: "manual" });

    process.env.GATEHOUSE_MODE = "production";
    const error = await refusal(request());
    expect(error.name).toBe("OutboundAddressRefused");
    expect(error.message).toContain("idp.test resolves to 127.0.0.1");
    expect(server.requests).toEqual([]);

    // The system resolver does not know idp.test: reaching the server proves the socket used the checked answer.
    process.env.GATEHOUSE_MODE = "development";
    expect((await request()).status).toBe(200);
    expect(server.requests).toEqual(["/jwks"]);
  });

  it("in production refuses a name when any one of its addresses is not public", async () => {
    process.env.GATEHOUSE_MODE = "production";
    const fetchVia = guardedFetch(
      resolverOf({
        "mixed.test": [
          { address: "93.184.216.34", family: 4 },
          { address: "169.254.169.254", family: 4 },
        ],
      }),
    );
    const error = await refusal(fetchVia("https://mixed.test/token", { method: "POST", headers: {}, body: "code=x", redirect: "manual" }));
    expect(error.message).toContain("169.254.169.254");
  });

  it("regression (follow-up finding 4): in production refuses a name resolving to the metadata service through NAT64 or 6to4", async () => {
    process.env.GATEHOUSE_MODE = "production";
    const fetchVia = guardedFetch(resolverOf({ "nat64.test": [{ address: "64:ff9b::a9fe:a9fe", family: 6 }], "6to4.test": [{ address: "2002:a9fe:a9fe::1", family: 6 }] }));
    for (const host of ["nat64.test", "6to4.test"]) {
      const error = await refusal(fetchVia(`https://${host}/token`, { method: "POST", headers: {}, body: "code=x", redirect: "manual" }));
      expect(error.name, host).toBe("OutboundAddressRefused");
      expect(error.message, host).toContain(`${host} resolves to`);
    }
  });

  it("OAUTH_PRIVATE_HOSTS lets the operator's own hosts through in production, in any spelling, and nothing else", async () => {
    process.env.GATEHOUSE_MODE = "production";
    process.env.OAUTH_PRIVATE_HOSTS = " SSO.corp.internal , 0x7f.0.0.1,::1, idp.test";
    expect(hostProblem("sso.corp.internal")).toBeNull();
    expect(hostProblem("[::1]")).toBeNull();
    expect(await outboundHostProblem("127.0.0.1")).toBeNull();
    expect(hostProblem("127.0.0.2")).toMatch(/non-public address/);
    expect(hostProblem("other.internal")).toMatch(/local or internal host/);

    const before = server.requests.length;
    expect((await providerFetch(`http://127.0.0.1:${server.port}/allowed`, { method: "GET", headers: {}, body: undefined, redirect: "manual" })).status).toBe(200);
    const fetchVia = guardedFetch(resolverOf({ "idp.test": [{ address: "127.0.0.1", family: 4 }], "other.test": [{ address: "127.0.0.1", family: 4 }] }));
    expect((await fetchVia(`http://idp.test:${server.port}/named`, { method: "GET", headers: {}, body: undefined, redirect: "manual" })).status).toBe(200);
    expect(server.requests.slice(before)).toEqual(["/allowed", "/named"]);
    expect((await refusal(fetchVia(`http://other.test:${server.port}/`, { method: "GET", headers: {}, body: undefined, redirect: "manual" }))).name).toBe("OutboundAddressRefused");
  });
});
