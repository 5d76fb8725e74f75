import { afterEach, describe, expect, it } from "vitest";
import { clientIp, fromLoopback } from "@/lib/operation/client-ip";

const withChain = (chain: string) => new Request("http://localhost/", { headers: { "x-forwarded-for": chain } });

describe("clientIp", () => {
  const saved = process.env.TRUSTED_PROXY_HOPS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUSTED_PROXY_HOPS;
    else process.env.TRUSTED_PROXY_HOPS = saved;
  });

  it("with no trusted proxy is the socket (right-most entry), whatever the client wrote to its left", () => {
    delete process.env.TRUSTED_PROXY_HOPS;
    expect(clientIp(withChain("198.51.100.1, 10.0.0.2"))).toBe("10.0.0.2");
  });

  it("walks back exactly TRUSTED_PROXY_HOPS entries from the socket", () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    expect(clientIp(withChain("198.51.100.1, 203.0.113.5, 10.0.0.2"))).toBe("203.0.113.5");
    process.env.TRUSTED_PROXY_HOPS = "2";
    expect(clientIp(withChain("198.51.100.1, 203.0.113.5, 10.0.0.3, 10.0.0.2"))).toBe("203.0.113.5");
  });

  it("stops at the furthest entry a trusted proxy appended when the chain is shorter than the walk", () => {
    process.env.TRUSTED_PROXY_HOPS = "3";
    expect(clientIp(withChain("203.0.113.5, 10.0.0.2"))).toBe("203.0.113.5");
    expect(clientIp(withChain("10.0.0.2"))).toBe("10.0.0.2");
  });

  it("regression: a malformed TRUSTED_PROXY_HOPS trusts no proxy instead of falling back to the left-most, client-written entry", () => {
    for (const hops of ["abc", "-1", "1.5", ""]) {
      process.env.TRUSTED_PROXY_HOPS = hops;
      expect(clientIp(withChain("198.51.100.66, 10.0.0.2")), hops).toBe("10.0.0.2");
    }
  });

  it("unwraps IPv4-mapped and bracketed addresses and refuses what is not an address", () => {
    delete process.env.TRUSTED_PROXY_HOPS;
    expect(clientIp(withChain("::ffff:127.0.0.1"))).toBe("127.0.0.1");
    expect(clientIp(withChain("[2001:db8::1]"))).toBe("2001:db8::1");
    expect(clientIp(withChain("198.51.100.1, unknown"))).toBeNull();
    expect(clientIp(new Request("http://localhost/"))).toBeNull();
  });
});

describe("fromLoopback", () => {
  const saved = process.env.TRUSTED_PROXY_HOPS;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUSTED_PROXY_HOPS;
    else process.env.TRUSTED_PROXY_HOPS = saved;
  });

  it("needs a loopback socket, and a loopback client behind any trusted proxy on this machine", () => {
    delete process.env.TRUSTED_PROXY_HOPS;
    expect(fromLoopback(withChain("127.0.0.1"))).toBe(true);
    expect(fromLoopback(withChain("::1"))).toBe(true);
    expect(fromLoopback(withChain("127.0.0.1, 203.0.113.5"))).toBe(false);
    process.env.TRUSTED_PROXY_HOPS = "1";
    expect(fromLoopback(withChain("203.0.113.5, 127.0.0.1"))).toBe(false);
    expect(fromLoopback(withChain("127.0.0.1, 127.0.0.1"))).toBe(true);
  });

  const local = (headers: Record<string, string>) => new Request("http://localhost/", { headers: { "x-forwarded-for": "127.0.0.1", ...headers } });

  it("regression: with no trusted proxy, every forwarded address and the Host must be loopback as well as the socket", () => {
    process.env.TRUSTED_PROXY_HOPS = "0";
    expect(fromLoopback(local({}))).toBe(true);
    expect(fromLoopback(local({ "x-forwarded-for": "203.0.113.5, 127.0.0.1" }))).toBe(false);
    expect(fromLoopback(local({ host: "auth.example.com" }))).toBe(false);
    expect(fromLoopback(local({ "x-real-ip": "203.0.113.5" }))).toBe(false);
    expect(fromLoopback(local({ forwarded: "for=203.0.113.5" }))).toBe(false);
    expect(fromLoopback(local({ forwarded: "for=unknown" }))).toBe(false);
    expect(fromLoopback(local({ forwarded: "for=127.0.0.1, for=203.0.113.5" }))).toBe(false);
    expect(fromLoopback(local({ forwarded: "for=127.0.0.1;host=auth.example.com" }))).toBe(false);
    expect(fromLoopback(local({ "x-forwarded-host": "auth.example.com" }))).toBe(false);
    expect(fromLoopback(new Request("http://localhost/"))).toBe(false);
  });

  it("takes localhost, *.localhost, 127.0.0.0/8 and [::1] as loopback names, with or without a port", () => {
    for (const host of ["localhost", "LOCALHOST:3000", "acme.localhost", "acme.localhost:3311", "127.0.0.1", "127.1.2.3:80", "[::1]", "[::1]:3000"]) {
      expect(fromLoopback(local({ host })), host).toBe(true);
    }
    for (const host of ["localhost.example.com", "example.localhost.com", "128.0.0.1", "[2001:db8::1]:3000", "::1", "localhost:abc", ""]) {
      expect(fromLoopback(local({ host })), host).toBe(false);
    }
    expect(fromLoopback(local({ "x-real-ip": "::1", forwarded: 'for="[::1]:4711";proto=http, for=127.0.0.1:8080' }))).toBe(true);
  });
});
