import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { expectProblem, type ServerApi } from "../helpers/api";
import { clientApi } from "../helpers/client";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";
import { FIREBASE_CONFIG, foreignDigests } from "../helpers/imported-digests";

interface ResultLine {
  line: number;
  id?: string;
  error?: { status: number; code: string; detail: string };
}

async function importLines(api: ServerApi, lines: unknown[]): Promise<ResultLine[]> {
  const res = await api.raw("POST", "/users/import", {
    rawBody: lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/x-ndjson");
  return res.text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as ResultLine)
    // A refused line answers at once, accepted ones when their batch is written.
    .sort((a, b) => a.line - b.line);
}

async function storedDigest(userId: string): Promise<string | null> {
  const [row] = await getDb().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row?.passwordHash ?? null;
}

describe("POST /api/server/v1/users/import", () => {
  it("imports a user of every supported hasher; each signs in with the old password and is upgraded to argon2id", async () => {
    const { api, publishableKey } = await newEnvironment();
    await api.patch("/environment", { rateLimits: { enabled: false } });
    const digests = await foreignDigests(STRONG_PASSWORD);
    const people = digests.map((digest, index) => ({ ...digest, email: uniqueEmail(digest.passwordHasher.replace("_", "-")), externalId: `legacy-${index}` }));
    const results = await importLines(api, [{ hasherConfig: { scrypt_firebase: FIREBASE_CONFIG } }, ...people]);
    expect(results.map((result) => result.line)).toEqual(people.map((_, index) => index + 2));
    for (const [index, result] of results.entries()) {
      expect(result.error, `${people[index]?.passwordHasher}: ${JSON.stringify(result.error)}`).toBeUndefined();
      const id = result.id ?? "";
      const person = people[index];
      if (!person) throw new Error("no person");
      const client = clientApi(publishableKey);
      expect((await client.post("/auth/login", { email: person.email, password: `${STRONG_PASSWORD}?` })).status, person.passwordHasher).toBe(401);
      expect(await storedDigest(id), "a wrong password upgrades nothing").not.toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      const login = await client.post("/auth/login", { email: person.email, password: STRONG_PASSWORD });
      expect(login.status, `${person.passwordHasher}: ${login.text}`).toBe(200);
      expect(await storedDigest(id), person.passwordHasher).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      // The upgraded digest still takes the same password.
      expect((await clientApi(publishableKey).post("/auth/login", { email: person.email, password: STRONG_PASSWORD })).status).toBe(200);
    }
  });

  it("keeps createdAt, metadata, verification and externalId; the server view and the search show externalId", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    const [result] = await importLines(api, [
      { email, externalId: "crm-42", emailVerified: false, createdAt: "2019-04-01T10:00:00.000Z", firstName: "Ada", privateMetadata: { plan: "gold" } },
    ]);
    const user = (await api.get(`/users/${result?.id}`)).body;
    expect(user).toMatchObject({ email, externalId: "crm-42", emailVerifiedAt: null, createdAt: "2019-04-01T10:00:00.000Z", firstName: "Ada", privateMetadata: { plan: "gold" }, hasPassword: false });
    const found = await api.post("/users/search", { externalId: "crm-42" });
    expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([result?.id]);
    expect((await api.post("/users/search", { externalId: "crm-43" })).body.items).toEqual([]);
  });

  it("reports a malformed line's error and lets the rest through", async () => {
    const { api } = await newEnvironment();
    const results = await importLines(api, [
      { email: uniqueEmail() },
      "{not json",
      { email: uniqueEmail(), passwordHasher: "bcrypt", passwordDigest: "$2b$10$tooshort" },
      { email: uniqueEmail(), passwordHasher: "md5", passwordDigest: "abc" },
      { email: uniqueEmail(), passwordHasher: "scrypt_firebase", passwordDigest: "aGFzaA==", passwordSalt: "c2FsdA==" },
      "",
      { email: uniqueEmail(), surprise: true },
      { email: uniqueEmail() },
    ]);
    expect(results.map((result) => [result.line, result.id ? "id" : result.error?.code])).toEqual([
      [1, "id"],
      [2, "invalid_request"],
      [3, "invalid_request"],
      [4, "invalid_request"],
      [5, "invalid_request"],
      [7, "invalid_request"],
      [8, "id"],
    ]);
    expect(results[1]?.error?.detail).toMatch(/not JSON/);
    expect(results[2]?.error?.detail).toMatch(/passwordDigest: must be a bcrypt modular crypt string/);
    expect(results[4]?.error?.detail).toMatch(/hasherConfig/);
  });

  it("regression (review): a line nested thousands deep is that line's error, not the end of the import", async () => {
    const { api } = await newEnvironment();
    const deep = `${"[".repeat(30_000)}${"]".repeat(30_000)}`;
    const results = await importLines(api, [{ email: uniqueEmail() }, deep, { email: uniqueEmail() }]);
    expect(results.map((result) => [result.line, result.id ? "id" : result.error?.code])).toEqual([
      [1, "id"],
      [2, "invalid_request"],
      [3, "id"],
    ]);
  });

  it("refuses per line a re-import with the same externalId, and a duplicate email in the same file", async () => {
    const { api } = await newEnvironment();
    const first = await importLines(api, [{ email: uniqueEmail(), externalId: "ext-1" }]);
    expect(first[0]?.id).toBeDefined();
    const email = uniqueEmail();
    const again = await importLines(api, [{ email: uniqueEmail(), externalId: "ext-1" }, { email, externalId: "ext-2" }, { email, externalId: "ext-3" }]);
    expect(again.map((result) => result.error?.code ?? "id")).toEqual(["identifier_exists", "id", "identifier_exists"]);
    expect(again[0]?.error).toMatchObject({ status: 409, detail: expect.stringMatching(/externalId/) });
    expectProblem(await api.post("/users", { externalId: "ext-1" }), 409, "identifier_exists");
  });

  it("streams a batch larger than one insert and refuses a body that is not NDJSON", async () => {
    const { api } = await newEnvironment();
    const lines = Array.from({ length: 1_203 }, (_, index) => ({ email: `bulk-${index}-${Date.now()}@example.com`, externalId: `bulk-${index}` }));
    const results = await importLines(api, lines);
    expect(results.filter((result) => result.id).length).toBe(1_203);
    expect((await api.get("/users/count")).body.count).toBe(1_203);
    expectProblem(await api.raw("POST", "/users/import", { rawBody: "{}", headers: { "content-type": "application/json" } }), 415, "unsupported_media_type");
  });
});

describe("POST /api/server/v1/users with a password digest", () => {
  it("creates a user who signs in with the old password", async () => {
    const { api, publishableKey } = await newEnvironment();
    const [bcrypt] = await foreignDigests(STRONG_PASSWORD);
    const email = uniqueEmail();
    const created = await api.post("/users", { email, externalId: "old-7", ...bcrypt });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ externalId: "old-7", hasPassword: true });
    expect((await clientApi(publishableKey).post("/auth/login", { email, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it("refuses a digest without its hasher, a digest with a password, and a malformed digest", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.post("/users", { passwordDigest: "sha256$a$b" }), 400, "invalid_request");
    expectProblem(await api.post("/users", { password: STRONG_PASSWORD, passwordHasher: "sha256", passwordDigest: "sha256$a$b" }), 400, "invalid_request");
    const malformed = await api.post("/users", { passwordHasher: "sha256", passwordDigest: "sha256$a$b" });
    expectProblem(malformed, 400, "invalid_request");
    expect(malformed.body.detail).toMatch(/passwordDigest/);
  });
});
