import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users as usersTable } from "@/db/schema";
import { expectProblem, problemFields, type ServerApi } from "../helpers/api";
import { createUser, newEnvironment, uniqueEmail, unknownId } from "../helpers/fixtures";

type User = Awaited<ReturnType<typeof createUser>>;

async function search(api: ServerApi, body: unknown, query = "") {
  const res = await api.post(`/users/search${query}`, body);
  expect(res.status, res.text).toBe(200);
  expect(res.body.hasMore).toBe(res.body.nextCursor !== null);
  return res.body as { items: User[]; nextCursor: string | null; hasMore: boolean };
}

const ids = (items: { id: string }[]) => items.map((item) => item.id).sort();

/** Walks every page with `limit`, checking the page invariants, and returns the items in order. */
async function walk(api: ServerApi, body: unknown, limit: number) {
  const seen: User[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 1000; page++) {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const result = await search(api, body, query);
    expect(result.items.length).toBeLessThanOrEqual(limit);
    if (result.hasMore) expect(result.items).toHaveLength(limit);
    seen.push(...result.items);
    if (!result.hasMore) return seen;
    expect(result.nextCursor).toBe(result.items.at(-1)?.id);
    cursor = result.nextCursor;
  }
  throw new Error("pagination did not end");
}

describe("POST /api/server/v1/users/search", () => {
  describe("filters", () => {
    let api: ServerApi;
    const users: Record<string, User> = {};

    beforeAll(async () => {
      ({ api } = await newEnvironment());
      users.ada = await createUser(api, { firstName: "Ada", lastName: "Lovelace", email: "ada.lovelace@example.com" });
      users.mcdonald = await createUser(api, { firstName: "Ronald", lastName: "McDonald", email: "RONALD@Burgers.example" });
      users.underscore = await createUser(api, { firstName: "Ann_Lee", email: "under_score@literal.test" });
      users.underX = await createUser(api, { firstName: "AnnXLee", email: "underXscore@literal.test" });
      users.percent = await createUser(api, { firstName: "50% off", email: "per%cent@literal.test" });
      users.percentless = await createUser(api, { firstName: "50 percent", email: "percent@literal.test" });
      users.backslash = await createUser(api, { firstName: "C:\\path" });
      // A backslash is no longer accepted in a new address (RFC 5321 mailboxes only), but rows
      // stored before that check may hold one, and search must still treat it literally.
      await getDb().update(usersTable).set({ email: "back\\slash@literal.test" }).where(eq(usersTable.id, users.backslash.id));
      users.noBackslash = await createUser(api, { firstName: "C:path", email: "backslash@literal.test" });
      users.nameless = await createUser(api, { email: "nameless@example.com" });
      users.emailless = await createUser(api, { firstName: "Nomail" });
      users.bare = await createUser(api, {});
    });

    it("with an empty filter returns every user of the environment, newest first", async () => {
      const page = await search(api, {});
      expect(ids(page.items)).toEqual(ids(Object.values(users)));
      const created = page.items.map((user) => user.createdAt);
      expect(created).toEqual([...created].sort().reverse());
      expect(page.items[0]?.id).toBe(users.bare?.id);
      expect(page.hasMore).toBe(false);
      expect(page.nextCursor).toBeNull();
    });

    it("treats an absent body as an empty filter", async () => {
      const res = await api.raw("POST", "/users/search");
      expect(res.status).toBe(200);
      expect(res.body.items).toHaveLength(Object.keys(users).length);
    });

    it("returns users in the server view, private metadata included", async () => {
      const { api: own } = await newEnvironment();
      const user = await createUser(own, { privateMetadata: { secret: 1 }, email: uniqueEmail() });
      const page = await search(own, {});
      expect(page.items).toEqual([user]);
    });

    it("name: a case-insensitive substring", async () => {
      expect(ids((await search(api, { name: "lovelace" })).items)).toEqual([users.ada?.id]);
      expect(ids((await search(api, { name: "MCDON" })).items)).toEqual([users.mcdonald?.id]);
      expect(ids((await search(api, { name: "a lov" })).items)).toEqual([users.ada?.id]);
      expect((await search(api, { name: "nobody has this name" })).items).toEqual([]);
    });

    it("name: null requires users without a name", async () => {
      expect(ids((await search(api, { name: null })).items)).toEqual(ids([users.nameless!, users.bare!]));
    });

    it("email: a case-insensitive substring of the primary email", async () => {
      expect(ids((await search(api, { email: "BURGERS" })).items)).toEqual([users.mcdonald?.id]);
      expect(ids((await search(api, { email: "lovelace@" })).items)).toEqual([users.ada?.id]);
    });

    it("email: null requires users without an email", async () => {
      expect(ids((await search(api, { email: null })).items)).toEqual(ids([users.emailless!, users.bare!]));
    });

    it("filters combine: name null and email null leaves only the bare user", async () => {
      expect(ids((await search(api, { name: null, email: null })).items)).toEqual([users.bare?.id]);
      expect(ids((await search(api, { name: "ann", email: "x" })).items)).toEqual([users.underX?.id]);
    });

    it("matches _ literally, not as a one-character wildcard", async () => {
      expect(ids((await search(api, { name: "_" })).items)).toEqual([users.underscore?.id]);
      expect(ids((await search(api, { name: "n_L" })).items)).toEqual([users.underscore?.id]);
      expect(ids((await search(api, { email: "_" })).items)).toEqual([users.underscore?.id]);
      expect(ids((await search(api, { email: "r_s" })).items)).toEqual([users.underscore?.id]);
    });

    it("matches % literally, not as a wildcard", async () => {
      expect(ids((await search(api, { name: "%" })).items)).toEqual([users.percent?.id]);
      expect(ids((await search(api, { name: "50%" })).items)).toEqual([users.percent?.id]);
      expect(ids((await search(api, { email: "per%cent" })).items)).toEqual([users.percent?.id]);
      expect(ids((await search(api, { email: "%" })).items)).toEqual([users.percent?.id]);
    });

    it("matches \\ literally, not as an escape character", async () => {
      expect(ids((await search(api, { name: "\\" })).items)).toEqual([users.backslash?.id]);
      expect(ids((await search(api, { name: "C:\\p" })).items)).toEqual([users.backslash?.id]);
      expect(ids((await search(api, { email: "back\\slash" })).items)).toEqual([users.backslash?.id]);
      // A trailing backslash must not escape the closing wildcard.
      expect(ids((await search(api, { email: "k\\" })).items)).toEqual([users.backslash?.id]);
      expect(ids((await search(api, { name: "\\%" })).items)).toEqual([]);
    });

    it("SQL metacharacters are search text, never SQL", async () => {
      for (const term of ["' OR 1=1 --", "'; DROP TABLE users; --", "\") OR (\"1\"=\"1", "*", ".*"]) {
        expect((await search(api, { name: term })).items).toEqual([]);
        expect((await search(api, { email: term })).items).toEqual([]);
      }
      expect((await search(api, {})).items).toHaveLength(Object.keys(users).length);
    });

    it("refuses an empty or over-long search term, and non-string terms", async () => {
      for (const body of [{ name: "" }, { email: "" }, { name: "x".repeat(257) }, { email: 5 }, { name: ["Ada"] }, { name: true }]) {
        expectProblem(await api.post("/users/search", body), 400, "invalid_request");
      }
      expect((await search(api, { name: "x".repeat(256) })).items).toEqual([]);
    });

    it("refuses unknown filter keys", async () => {
      const res = await api.post("/users/search", { nickname: "ada" });
      expectProblem(res, 400, "invalid_request");
    });
  });

  describe("statuses", () => {
    let api: ServerApi;
    let active: User;
    let banned: User;
    let deleted: User;

    beforeAll(async () => {
      ({ api } = await newEnvironment());
      active = await createUser(api, { email: uniqueEmail("active") });
      banned = await createUser(api, { email: uniqueEmail("banned") });
      deleted = await createUser(api, { email: uniqueEmail("deleted") });
      expect((await api.post(`/users/${banned.id}/ban`)).status).toBe(200);
      expect((await api.delete(`/users/${deleted.id}`)).status).toBe(200);
    });

    it("matches users having any listed status", async () => {
      expect(ids((await search(api, { statuses: ["active"] })).items)).toEqual([active.id]);
      expect(ids((await search(api, { statuses: ["banned"] })).items)).toEqual([banned.id]);
      expect(ids((await search(api, { statuses: ["deleted"] })).items)).toEqual([deleted.id]);
      expect(ids((await search(api, { statuses: ["active", "deleted"] })).items)).toEqual(ids([active, deleted]));
      expect(ids((await search(api, { statuses: ["deleted", "banned", "active"] })).items)).toEqual(ids([active, banned, deleted]));
    });

    it("omitting statuses includes every status, deleted users too", async () => {
      expect(ids((await search(api, {})).items)).toEqual(ids([active, banned, deleted]));
    });

    it("refuses null, an empty list, repeated items, unknown statuses and a bare string", async () => {
      for (const statuses of [null, [], ["active", "active"], ["banned", "active", "banned"], ["suspended"], ["ACTIVE"], "active", [1]]) {
        const res = await api.post("/users/search", { statuses });
        expectProblem(res, 400, "invalid_request");
        expect(problemFields(res).some((field) => field.startsWith("statuses"))).toBe(true);
      }
    });
  });

  describe("createdAfter and createdBefore", () => {
    let api: ServerApi;
    const users: User[] = [];

    beforeAll(async () => {
      ({ api } = await newEnvironment());
      for (let i = 0; i < 6; i++) users.push(await createUser(api, { firstName: `Timed ${i}` }));
    });

    /** The users whose reported createdAt lies in [after, before], computed from the API's own values. */
    const expected = (after?: string, before?: string) =>
      ids(users.filter((user) => (!after || user.createdAt >= after) && (!before || user.createdAt <= before)));

    it("both bounds are inclusive", async () => {
      const after = users[1]!.createdAt;
      const before = users[4]!.createdAt;
      const found = ids((await search(api, { createdAfter: after, createdBefore: before })).items);
      expect(found).toEqual(expected(after, before));
      expect(found).toEqual(expect.arrayContaining([users[1]!.id, users[2]!.id, users[3]!.id, users[4]!.id]));
      expect(found).not.toContain(users[0]!.id);
      expect(found).not.toContain(users[5]!.id);
    });

    it("createdBefore includes a user created at exactly that instant (regression: microsecond created_at fell outside a millisecond bound)", async () => {
      // created_at is stored with microseconds but reported with milliseconds, so
      // `created_at <= bound` excluded the very user whose createdAt was the bound.
      for (const user of users) {
        const found = ids((await search(api, { createdBefore: user.createdAt })).items);
        expect(found).toContain(user.id);
        expect(found).toEqual(expected(undefined, user.createdAt));
      }
    });

    it("createdAfter includes a user created at exactly that instant", async () => {
      for (const user of users) {
        const found = ids((await search(api, { createdAfter: user.createdAt })).items);
        expect(found).toContain(user.id);
        expect(found).toEqual(expected(user.createdAt));
      }
    });

    it("a window of one instant finds the user created then", async () => {
      const user = users[3]!;
      const found = ids((await search(api, { createdAfter: user.createdAt, createdBefore: user.createdAt })).items);
      expect(found).toContain(user.id);
      expect(found).toEqual(expected(user.createdAt, user.createdAt));
    });

    it("an empty window and bounds outside every user find nothing", async () => {
      expect((await search(api, { createdAfter: users[4]!.createdAt, createdBefore: users[1]!.createdAt })).items).toEqual([]);
      expect((await search(api, { createdAfter: "9999-12-31T23:59:59.999Z" })).items).toEqual([]);
      expect((await search(api, { createdBefore: "1970-01-01T00:00:00Z" })).items).toEqual([]);
      expect(ids((await search(api, { createdAfter: "1970-01-01T00:00:00Z", createdBefore: "9999-12-31T23:59:59.999Z" })).items)).toEqual(ids(users));
    });

    it("null requires a null createdAt, which no user has", async () => {
      expect((await search(api, { createdAfter: null })).items).toEqual([]);
      expect((await search(api, { createdBefore: null })).items).toEqual([]);
    });

    it("refuses anything but an ISO-8601 UTC date-time", async () => {
      for (const value of ["yesterday", "2024-01-01", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z", 1700000000000, true, {}]) {
        expectProblem(await api.post("/users/search", { createdAfter: value }), 400, "invalid_request");
        expectProblem(await api.post("/users/search", { createdBefore: value }), 400, "invalid_request");
      }
    });
  });

  describe("limit", () => {
    let api: ServerApi;

    beforeAll(async () => {
      ({ api } = await newEnvironment());
      for (let i = 0; i < 25; i++) await createUser(api, {});
    });

    it("defaults to 20", async () => {
      const page = await search(api, {});
      expect(page.items).toHaveLength(20);
      expect(page.hasMore).toBe(true);
      expect(page.nextCursor).toBe(page.items[19]?.id);
    });

    it("accepts 1 to 100", async () => {
      const one = await search(api, {}, "?limit=1");
      expect(one.items).toHaveLength(1);
      expect(one.hasMore).toBe(true);
      const hundred = await search(api, {}, "?limit=100");
      expect(hundred.items).toHaveLength(25);
      expect(hundred.hasMore).toBe(false);
      expect(hundred.nextCursor).toBeNull();
      const exact = await search(api, {}, "?limit=25");
      expect(exact.items).toHaveLength(25);
      expect(exact.hasMore).toBe(false);
    });

    it.each(["0", "-1", "101", "1000", "1e6", "1e1", "abc", "1.5", "", " 5", "0x10", "+5", "NaN", "Infinity", "99999999999999999999"])(
      "refuses limit=%j with invalid_request",
      async (limit) => {
        const res = await api.post(`/users/search?limit=${encodeURIComponent(limit)}`, {});
        expectProblem(res, 400, "invalid_request");
        expect(problemFields(res)).toContain("limit");
      },
    );
  });

  describe("keyset pagination", () => {
    let api: ServerApi;
    let all: User[];

    beforeAll(async () => {
      ({ api } = await newEnvironment());
      for (let i = 0; i < 45; i++) await createUser(api, { firstName: `Page ${i}`, email: uniqueEmail("page") });
      all = (await search(api, {}, "?limit=100")).items;
      expect(all).toHaveLength(45);
    });

    it("walks 45 users in pages of 10, each exactly once, in the same order as one big page", async () => {
      const seen = await walk(api, {}, 10);
      expect(seen.map((user) => user.id)).toEqual(all.map((user) => user.id));
      expect(new Set(seen.map((user) => user.id)).size).toBe(45);
    });

    it("page sizes are 10, 10, 10, 10, 5 and only the last page has no cursor", async () => {
      const sizes: number[] = [];
      const more: boolean[] = [];
      let cursor: string | null = null;
      do {
        const page = await search(api, {}, `?limit=10${cursor ? `&cursor=${cursor}` : ""}`);
        sizes.push(page.items.length);
        more.push(page.hasMore);
        cursor = page.nextCursor;
      } while (cursor);
      expect(sizes).toEqual([10, 10, 10, 10, 5]);
      expect(more).toEqual([true, true, true, true, false]);
    });

    it("paginates a filtered search", async () => {
      const seen = await walk(api, { name: "page 1" }, 3);
      // Page 1, Page 10..19
      expect(seen).toHaveLength(11);
      expect(seen.every((user) => user.name?.startsWith("Page 1"))).toBe(true);
      expect(new Set(seen.map((user) => user.id)).size).toBe(11);
    });

    it("an empty result has no cursor", async () => {
      const page = await search(api, { name: "no such user" }, "?limit=10");
      expect(page).toEqual({ items: [], nextCursor: null, hasMore: false });
    });

    it("refuses an unknown cursor with invalid_request", async () => {
      const res = await api.post(`/users/search?cursor=${unknownId()}`, {});
      expectProblem(res, 400, "invalid_request");
    });

    it("refuses a cursor that is not a UUID", async () => {
      for (const cursor of ["abc", "' OR 1=1 --", "12345", `${all[0]!.id}x`]) {
        const res = await api.post(`/users/search?cursor=${encodeURIComponent(cursor)}`, {});
        expectProblem(res, 400, "invalid_request");
        expect(problemFields(res)).toContain("cursor");
      }
    });

    it("refuses a cursor from another environment", async () => {
      const other = await newEnvironment();
      const res = await other.api.post(`/users/search?cursor=${all[0]!.id}`, {});
      expectProblem(res, 400, "invalid_request");
    });

    it("the last user's id as a cursor gives an empty last page", async () => {
      const page = await search(api, {}, `?cursor=${all.at(-1)!.id}`);
      expect(page).toEqual({ items: [], nextCursor: null, hasMore: false });
    });

    it("is stable while users are created during the walk (runs last: it adds a user)", async () => {
      const first = await search(api, {}, "?limit=10");
      await createUser(api, { firstName: "Late arrival" });
      let cursor = first.nextCursor;
      const seen = [...first.items];
      while (cursor) {
        const page = await search(api, {}, `?limit=10&cursor=${cursor}`);
        seen.push(...page.items);
        cursor = page.nextCursor;
      }
      // The newcomer sorts before the cursor, so the walk neither repeats nor skips anyone.
      expect(seen.map((user) => user.id)).toEqual(all.map((user) => user.id));
    });
  });

  it("answers 401 without a valid secret key", async () => {
    const { api } = await newEnvironment();
    const res = await api.raw("POST", "/users/search", { body: {}, headers: { authorization: "Bearer nope" } });
    expectProblem(res, 401, "unauthorized");
  });

  it("only ever returns users of the caller's environment", async () => {
    const a = await newEnvironment();
    const b = await newEnvironment();
    const email = uniqueEmail("shared");
    const inA = await createUser(a.api, { email, firstName: "Shared" });
    const inB = await createUser(b.api, { email, firstName: "Shared" });
    expect(ids((await search(a.api, { email })).items)).toEqual([inA.id]);
    expect(ids((await search(b.api, { name: "shared" })).items)).toEqual([inB.id]);
  });
});
