import { describe, expect, it } from "vitest";
import { deepMerge, isPlainObject } from "@/lib/json/deep-merge";

describe("deepMerge", () => {
  it("merges objects recursively and lets the patch win on conflicts", () => {
    expect(deepMerge({ a: 1, b: { c: 2, d: 3 } }, { b: { d: 4, e: 5 }, f: 6 })).toEqual({ a: 1, b: { c: 2, d: 4, e: 5 }, f: 6 });
  });

  it("null removes a key at any depth, and a missing key is no error", () => {
    expect(deepMerge({ a: 1, b: { c: { d: 1, e: 2 } } }, { a: null, b: { c: { d: null } }, zz: null })).toEqual({ b: { c: { e: 2 } } });
  });

  it("arrays and scalars replace instead of merging", () => {
    expect(deepMerge({ list: [1, 2, 3], o: { x: 1 }, s: "a" }, { list: [4], o: "now text", s: { now: "object" } })).toEqual({
      list: [4],
      o: "now text",
      s: { now: "object" },
    });
  });

  it("a new object from the patch is copied and loses its nulls", () => {
    const patch = { fresh: { keep: 1, drop: null } };
    const merged = deepMerge({}, patch);
    expect(merged).toEqual({ fresh: { keep: 1 } });
    expect(merged.fresh).not.toBe(patch.fresh);
  });

  it("mutates neither input", () => {
    const base = { a: { b: 1 } };
    const patch = { a: { c: 2 } };
    const merged = deepMerge(base, patch);
    expect(base).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { c: 2 } });
    expect(merged.a).not.toBe(base.a);
  });

  it("keeps constructor and prototype as plain own data and pollutes nothing", () => {
    const patch = JSON.parse('{"constructor":{"prototype":{"polluted":true}},"prototype":{"x":1}}') as Record<string, unknown>;
    const merged = deepMerge({}, patch);
    expect(Object.keys(merged)).toEqual(["constructor", "prototype"]);
    expect(merged.constructor).toEqual({ prototype: { polluted: true } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof ({}).constructor).toBe("function");
  });

  it("writes a __proto__ key as an own property rather than replacing the result's prototype", () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const merged = deepMerge({}, patch);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(merged, "__proto__")).toBe(true);
    expect((merged as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("merging into an existing constructor key merges as data", () => {
    const base = JSON.parse('{"constructor":{"a":1}}') as Record<string, unknown>;
    expect(deepMerge(base, JSON.parse('{"constructor":{"b":2}}') as Record<string, unknown>)).toEqual({ constructor: { a: 1, b: 2 } });
  });
});

describe("isPlainObject", () => {
  it("is true only for non-null, non-array objects", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject({ a: 1 })).toBe(true);
    for (const value of [null, undefined, [], "x", 1, true]) expect(isPlainObject(value)).toBe(false);
  });
});
