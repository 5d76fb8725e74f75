import { describe, expect, it } from "vitest";
import { expectProblem, problemFields, type ServerApi } from "../helpers/api";
import { createUser, newEnvironment, unknownId } from "../helpers/fixtures";

async function patchMetadata(api: ServerApi, userId: string, body: unknown) {
  const res = await api.patch(`/users/${userId}/metadata`, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe("PATCH /api/server/v1/users/{userId}/metadata", () => {
  it("deep-merges each bag into the stored one and returns the user", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {
      publicMetadata: { plan: "free", limits: { seats: 1, storage: { gb: 5, tier: "s" } }, tags: ["a"] },
    });
    const body = await patchMetadata(api, user.id, {
      publicMetadata: { plan: "pro", limits: { seats: 10, storage: { gb: 50 } }, since: "2024" },
    });
    expect(body.id).toBe(user.id);
    expect(body.publicMetadata).toEqual({
      plan: "pro",
      limits: { seats: 10, storage: { gb: 50, tier: "s" } },
      tags: ["a"],
      since: "2024",
    });
    expect((await api.get(`/users/${user.id}`)).body.publicMetadata).toEqual(body.publicMetadata);
  });

  it("replaces arrays and scalars instead of merging them", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { privateMetadata: { list: [1, 2, 3], value: { nested: true }, flag: "x" } });
    const body = await patchMetadata(api, user.id, { privateMetadata: { list: [9], value: "now a string", flag: { now: "an object" } } });
    expect(body.privateMetadata).toEqual({ list: [9], value: "now a string", flag: { now: "an object" } });
  });

  it("null removes a key at the top level and at any depth", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {
      unsafeMetadata: { a: 1, b: { c: 2, d: { e: 3, f: 4 } }, g: [1] },
    });
    const body = await patchMetadata(api, user.id, { unsafeMetadata: { a: null, b: { d: { e: null } } } });
    expect(body.unsafeMetadata).toEqual({ b: { c: 2, d: { f: 4 } }, g: [1] });
    const again = await patchMetadata(api, user.id, { unsafeMetadata: { b: null, g: null, missing: null } });
    expect(again.unsafeMetadata).toEqual({});
  });

  it("null inside a new object does not store the null", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    const body = await patchMetadata(api, user.id, { publicMetadata: { fresh: { keep: 1, drop: null } } });
    expect(body.publicMetadata).toEqual({ fresh: { keep: 1 } });
  });

  it("an omitted bag is unchanged; each bag merges on its own", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {
      publicMetadata: { pub: 1 },
      privateMetadata: { priv: 1 },
      unsafeMetadata: { unsafe: 1 },
    });
    const body = await patchMetadata(api, user.id, { privateMetadata: { more: 2 } });
    expect(body.publicMetadata).toEqual({ pub: 1 });
    expect(body.privateMetadata).toEqual({ priv: 1, more: 2 });
    expect(body.unsafeMetadata).toEqual({ unsafe: 1 });
    const all = await patchMetadata(api, user.id, { publicMetadata: { p: 2 }, unsafeMetadata: { u: 2 } });
    expect(all.publicMetadata).toEqual({ pub: 1, p: 2 });
    expect(all.privateMetadata).toEqual({ priv: 1, more: 2 });
    expect(all.unsafeMetadata).toEqual({ unsafe: 1, u: 2 });
  });

  it("an empty body and empty bags change nothing", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { publicMetadata: { a: 1 }, privateMetadata: { b: 2 } });
    for (const body of [{}, { publicMetadata: {} }, { publicMetadata: {}, privateMetadata: {}, unsafeMetadata: {} }]) {
      const after = await patchMetadata(api, user.id, body);
      expect(after.publicMetadata).toEqual({ a: 1 });
      expect(after.privateMetadata).toEqual({ b: 2 });
      expect(after.unsafeMetadata).toEqual({});
    }
  });

  it("does not touch the rest of the user", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { firstName: "Ada", locale: "da" });
    const body = await patchMetadata(api, user.id, { publicMetadata: { x: 1 } });
    expect({ ...body, publicMetadata: {}, updatedAt: user.updatedAt }).toEqual(user);
  });

  it("works on a banned user", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    await api.post(`/users/${user.id}/ban`);
    const body = await patchMetadata(api, user.id, { privateMetadata: { reason: "spam" } });
    expect(body).toMatchObject({ status: "banned", privateMetadata: { reason: "spam" } });
  });

  describe("size limits on the merged result (UTF-8 bytes of its JSON)", () => {
    it.each([
      ["publicMetadata", 512],
      ["unsafeMetadata", 512],
      ["privateMetadata", 4096],
    ] as const)("%s: a merge reaching exactly %i bytes passes, one byte more is metadata_too_large", async (bag, limit) => {
      const { api } = await newEnvironment();
      // {"a":"…"} is 8 bytes around a's value; ,"b":"…" adds 7 more around b's.
      const half = Math.floor(limit / 2);
      const user = await createUser(api, { [bag]: { a: "x".repeat(half - 8) } });
      const rest = limit - half - 7;
      const ok = await patchMetadata(api, user.id, { [bag]: { b: "y".repeat(rest) } });
      expect(Buffer.byteLength(JSON.stringify(ok[bag]))).toBe(limit);
      const over = await api.patch(`/users/${user.id}/metadata`, { [bag]: { b: "y".repeat(rest + 1) } });
      expectProblem(over, 400, "metadata_too_large");
      expect(problemFields(over)).toEqual([bag]);
      expect(over.body.detail).toContain(bag);
      expect((await api.get(`/users/${user.id}`)).body[bag]).toEqual(ok[bag]);
    });

    it("a patch that is small on its own is refused when the merged bag is too big", async () => {
      const { api } = await newEnvironment();
      const user = await createUser(api, { publicMetadata: { big: "x".repeat(480) } });
      const res = await api.patch(`/users/${user.id}/metadata`, { publicMetadata: { small: "y".repeat(30) } });
      expectProblem(res, 400, "metadata_too_large");
      expect((await api.get(`/users/${user.id}`)).body.publicMetadata).toEqual({ big: "x".repeat(480) });
    });

    it("a patch that is big on its own passes when removals make the merged bag fit", async () => {
      const { api } = await newEnvironment();
      const user = await createUser(api, { unsafeMetadata: { old: "x".repeat(400) } });
      const body = await patchMetadata(api, user.id, { unsafeMetadata: { old: null, replacement: "y".repeat(400) } });
      expect(body.unsafeMetadata).toEqual({ replacement: "y".repeat(400) });
    });

    it("counts bytes, not characters: multi-byte text reaches the limit sooner", async () => {
      const { api } = await newEnvironment();
      const user = await createUser(api, {});
      // 126 four-byte emoji are 504 bytes: with {"e":""} that is 512, the limit exactly.
      const ok = await patchMetadata(api, user.id, { publicMetadata: { e: "🦄".repeat(126) } });
      expect(ok.publicMetadata.e).toBe("🦄".repeat(126));
      expectProblem(await api.patch(`/users/${user.id}/metadata`, { publicMetadata: { e: "🦄".repeat(127) } }), 400, "metadata_too_large");
    });

    it("one oversized bag refuses the whole patch: the other bags are not written either", async () => {
      const { api } = await newEnvironment();
      const user = await createUser(api, {});
      const res = await api.patch(`/users/${user.id}/metadata`, {
        privateMetadata: { fine: true },
        unsafeMetadata: { huge: "x".repeat(600) },
      });
      expectProblem(res, 400, "metadata_too_large");
      expect((await api.get(`/users/${user.id}`)).body.privateMetadata).toEqual({});
    });
  });

  describe("keys that are dangerous in JavaScript", () => {
    it("refuses __proto__ at the top of a bag with invalid_request and stores nothing (regression: zod dropped the key silently)", async () => {
      const { api } = await newEnvironment();
      const user = await createUser(api, { publicMetadata: { before: 1 } });
      const res = await api.raw("PATCH", `/users/${user.id}/metadata`, {
        rawBody: '{"publicMetadata":{"__proto__":{"polluted":true},"after":2}}',
        headers: { "content-type": "application/json" },
      });
      expectProblem(res, 400, "invalid_request");
      expect((await api.get(`/users/${user.id}`)).body.publicMetadata).toEqual({ before: 1 });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it.each([
      ['{"privateMetadata":{"a":{"b":{"__proto__":{"polluted":true}}}}}', "nested in objects"],
      ['{"unsafeMetadata":{"list":[{"__proto__":{"polluted":true}}]}}', "inside an array"],
      ['{"publicMetadata":{"__proto__":null}}', "as a removal"],
    ])("refuses __proto__ %s", async (rawBody) => {
      const { api } = await newEnvironment();
      const user = await createUser(api, {});
      const res = await api.raw("PATCH", `/users/${user.id}/metadata`, { rawBody, headers: { "content-type": "application/json" } });
      expectProblem(res, 400, "invalid_request");
      const after = (await api.get(`/users/${user.id}`)).body;
      expect([after.publicMetadata, after.privateMetadata, after.unsafeMetadata]).toEqual([{}, {}, {}]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("refuses __proto__ in a bag given at creation", async () => {
      const { api } = await newEnvironment();
      const res = await api.raw("POST", "/users", {
        rawBody: '{"unsafeMetadata":{"x":{"__proto__":{"isAdmin":true}}}}',
        headers: { "content-type": "application/json" },
      });
      expectProblem(res, 400, "invalid_request");
      expect((await api.post("/users/search", {})).body.items).toEqual([]);
    });

    it("stores constructor and prototype keys as plain data, and Object.prototype stays clean", async () => {
      const { api } = await newEnvironment();
      const user = await createUser(api, { publicMetadata: { constructor: { prototype: { polluted: "create" } } } });
      expect(user.publicMetadata).toEqual({ constructor: { prototype: { polluted: "create" } } });
      const res = await api.raw("PATCH", `/users/${user.id}/metadata`, {
        rawBody: '{"publicMetadata":{"constructor":{"prototype":{"isAdmin":true}}},"privateMetadata":{"prototype":{"toString":"x"},"constructor":"plain"}}',
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(200);
      expect(res.body.publicMetadata).toEqual({ constructor: { prototype: { polluted: "create", isAdmin: true } } });
      expect(res.body.privateMetadata).toEqual({ prototype: { toString: "x" }, constructor: "plain" });
      const stored = (await api.get(`/users/${user.id}`)).body;
      expect(stored.publicMetadata.constructor.prototype.isAdmin).toBe(true);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.prototype.toString.call({})).toBe("[object Object]");
      expect(typeof ({}).constructor).toBe("function");
    });
  });

  it("answers 400 invalid_request for bags that are not objects and for unknown keys", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { publicMetadata: { kept: true } });
    for (const body of [
      { publicMetadata: null },
      { publicMetadata: [] },
      { publicMetadata: "text" },
      { privateMetadata: 1 },
      { unsafeMetadata: true },
      { metadata: {} },
      { publicMetadata: {}, extra: 1 },
      [],
      "publicMetadata",
    ]) {
      expectProblem(await api.patch(`/users/${user.id}/metadata`, body), 400, "invalid_request");
    }
    expect((await api.get(`/users/${user.id}`)).body.publicMetadata).toEqual({ kept: true });
  });

  it("answers 404 for an unknown user and a deleted one, 400 for a malformed id", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.patch(`/users/${unknownId()}/metadata`, { publicMetadata: { a: 1 } }), 404, "resource_not_found");
    const user = await createUser(api, {});
    await api.delete(`/users/${user.id}`);
    expectProblem(await api.patch(`/users/${user.id}/metadata`, { publicMetadata: { a: 1 } }), 404, "resource_not_found");
    expectProblem(await api.patch("/users/123/metadata", { publicMetadata: { a: 1 } }), 400, "invalid_request");
  });

  it("answers 413 for a body over 64 KiB", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, {});
    expectProblem(await api.patch(`/users/${user.id}/metadata`, { privateMetadata: { a: "x".repeat(70_000) } }), 413, "payload_too_large");
  });
});
