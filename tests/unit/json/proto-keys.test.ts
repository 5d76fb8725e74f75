import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hasProtoKey, refuseProtoKeys } from "@/lib/json/proto-keys";

const parse = (text: string) => JSON.parse(text) as unknown;

describe("hasProtoKey", () => {
  it("finds __proto__ at the top, nested in objects and inside arrays", () => {
    expect(hasProtoKey(parse('{"__proto__":{}}'))).toBe(true);
    expect(hasProtoKey(parse('{"a":{"b":{"__proto__":1}}}'))).toBe(true);
    expect(hasProtoKey(parse('[[{"__proto__":null}]]'))).toBe(true);
  });

  it("ignores constructor, prototype and __proto__ as a value", () => {
    expect(hasProtoKey(parse('{"constructor":{"prototype":1},"x":"__proto__"}'))).toBe(false);
    expect(hasProtoKey(parse('["__proto__"]'))).toBe(false);
    expect(hasProtoKey("__proto__")).toBe(false);
    expect(hasProtoKey(null)).toBe(false);
  });
});

describe("refuseProtoKeys", () => {
  const schema = refuseProtoKeys(z.record(z.string(), z.json()));

  it("refuses a __proto__ key that the bare record schema silently drops (regression)", () => {
    const input = parse('{"__proto__":{"polluted":true},"a":1}');
    const bare = z.record(z.string(), z.json()).safeParse(input);
    expect(bare.success).toBe(true);
    expect(bare.data).toEqual({ a: 1 });
    const result = schema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("must not contain a __proto__ key");
  });

  it("passes everything else through unchanged", () => {
    expect(schema.parse(parse('{"constructor":{"prototype":{"a":[1,"b",null]}}}'))).toEqual({ constructor: { prototype: { a: [1, "b", null] } } });
  });

  it("still applies the wrapped schema", () => {
    expect(schema.safeParse([1]).success).toBe(false);
    expect(schema.safeParse("text").success).toBe(false);
  });
});
