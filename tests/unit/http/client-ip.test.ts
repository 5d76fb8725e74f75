import { afterEach, describe, expect, it } from "vitest";
import { clientIp, fromLoopback, socketAddress } from "@/lib/http/client-ip";

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
    expect(socketAddress(withChain("198.51.100.1, 10.0.0.2"))).toBe("10.0.0.2");
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
});
