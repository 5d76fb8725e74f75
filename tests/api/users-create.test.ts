import { describe, expect, it } from "vitest";
import { call, expectProblem, problemFields, serverApi } from "../helpers/api";
import { createUser, newEnvironment, revokedSecretKey, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

describe("POST /api/server/v1/users", () => {
  it("creates a user with an argon2id hash and returns the server view", async () => {
    const { api, environmentId } = await newEnvironment();
    const email = uniqueEmail();
    const res = await api.post("/users", {
      email: email.toUpperCase(),
      password: STRONG_PASSWORD,
      firstName: "Ada",
      lastName: "Lovelace",
      publicMetadata: { plan: "pro" },
      privateMetadata: { stripeId: "cus_1" },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      environmentId,
      email,
      name: "Ada Lovelace",
      firstName: "Ada",
      status: "active",
      hasPassword: true,
      publicMetadata: { plan: "pro" },
      privateMetadata: { stripeId: "cus_1" },
      unsafeMetadata: {},
      deletedAt: null,
    });
    expect(res.body.emailVerifiedAt).not.toBeNull();
    expect(res.body).not.toHaveProperty("passwordHash");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("refuses a second user with the same email, whatever its case", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    expect((await api.post("/users", { email })).status).toBe(201);
    const res = await api.post("/users", { email: email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("identifier_exists");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
  });

  it("rejects a common password and a short one with password_too_weak", async () => {
    const { api } = await newEnvironment();
    for (const password of ["password1", "short"]) {
      const res = await api.post("/users", { email: uniqueEmail(), password });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("password_too_weak");
      expect(res.body.properties.code).toBe("password_too_weak");
    }
  });

  it("answers 401 without a valid secret key", async () => {
    const { api } = await newEnvironment();
    const res = await api.raw("POST", "/users", { body: {}, headers: { authorization: "Bearer sk_test_nope" } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });

  it("creates a user from an empty body: no email, no password, empty bags", async () => {
    const { api, environmentId } = await newEnvironment();
    const res = await api.post("/users", {});
    expect(res.status).toBe(201);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.body).toMatchObject({
      environmentId,
      email: null,
      emailVerifiedAt: null,
      hasPassword: false,
      name: null,
      firstName: null,
      lastName: null,
      locale: null,
      status: "active",
      deletedAt: null,
      publicMetadata: {},
      privateMetadata: {},
      unsafeMetadata: {},
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(res.body.createdAt)).not.toBeNaN();
    expect(res.body.updatedAt).toBe(res.body.createdAt);
  });

  it("also creates a user when no body at all is sent", async () => {
    const { api } = await newEnvironment();
    const res = await api.raw("POST", "/users");
    expect(res.status).toBe(201);
    expect(res.body.email).toBeNull();
  });

  it("persists the user: GET returns what create returned", async () => {
    const { api } = await newEnvironment();
    const created = await createUser(api, { email: uniqueEmail(), firstName: "Grace", locale: "da", unsafeMetadata: { theme: "dark" } });
    const res = await api.get(`/users/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it("derives name from first and last name, trims them and stores blank names as null", async () => {
    const { api } = await newEnvironment();
    expect(await createUser(api, { lastName: "Hopper" })).toMatchObject({ name: "Hopper", firstName: null, lastName: "Hopper" });
    expect(await createUser(api, { firstName: "  Alan  ", lastName: " Turing " })).toMatchObject({
      name: "Alan Turing",
      firstName: "Alan",
      lastName: "Turing",
    });
    expect(await createUser(api, { firstName: "   ", lastName: "" })).toMatchObject({ name: null, firstName: null, lastName: null });
  });

  it("accepts both locales and refuses any other", async () => {
    const { api } = await newEnvironment();
    expect((await createUser(api, { locale: "en" })).locale).toBe("en");
    expect((await createUser(api, { locale: "da" })).locale).toBe("da");
    const res = await api.post("/users", { locale: "fr" });
    expectProblem(res, 400, "invalid_request");
    expect(problemFields(res)).toContain("locale");
  });

  it("stores an IDN email with its domain in ASCII, so both spellings are one identity", async () => {
    const { api } = await newEnvironment();
    const user = await createUser(api, { email: "Ann@Bücher.de" });
    expect(user.email).toBe("ann@xn--bcher-kva.de");
    expectProblem(await api.post("/users", { email: "ann@xn--bcher-kva.de" }), 409, "identifier_exists");
    expectProblem(await api.post("/users", { email: "  ANN@BÜCHER.DE " }), 409, "identifier_exists");
  });

  it("a passwordless user has hasPassword false; a user with a password never shows its hash", async () => {
    const { api } = await newEnvironment();
    const passwordless = await createUser(api, { email: uniqueEmail() });
    expect(passwordless.hasPassword).toBe(false);
    const withPassword = await api.post("/users", { email: uniqueEmail(), password: STRONG_PASSWORD });
    expect(withPassword.body.hasPassword).toBe(true);
    expect(withPassword.text).not.toContain("argon2");
    expect(withPassword.text).not.toContain(STRONG_PASSWORD);
  });

  it("rejects malformed emails with invalid_request naming the field", async () => {
    const { api } = await newEnvironment();
    for (const email of ["", "plain", "a@", "@example.com", "a b@example.com", "a@b@example.com", `${"a".repeat(250)}@example.com`]) {
      const res = await api.post("/users", { email });
      expectProblem(res, 400, "invalid_request");
      expect(problemFields(res)).toContain("email");
    }
  });

  it("rejects wrong types and unknown keys with invalid_request", async () => {
    const { api } = await newEnvironment();
    const bodies: Record<string, unknown>[] = [
      { email: 42 },
      { email: null },
      { firstName: 7 },
      { firstName: ["Ada"] },
      { lastName: { first: "x" } },
      { password: true },
      { password: "" },
      { locale: null },
      { publicMetadata: "not an object" },
      { privateMetadata: [1, 2] },
      { unsafeMetadata: null },
      { role: "admin" },
      { status: "banned" },
      { id: "00000000-0000-4000-8000-000000000000" },
    ];
    for (const body of bodies) {
      expectProblem(await api.post("/users", body), 400, "invalid_request");
    }
    const all = await api.post("/users/search", {});
    expect(all.body.items).toHaveLength(0);
  });

  it("rejects a name over 100 characters or with control characters", async () => {
    const { api } = await newEnvironment();
    expectProblem(await api.post("/users", { firstName: "x".repeat(101) }), 400, "invalid_request");
    expectProblem(await api.post("/users", { lastName: "line\nbreak" }), 400, "invalid_request");
    expect((await createUser(api, { firstName: "x".repeat(100) })).firstName).toHaveLength(100);
  });

  it("applies the environment's password policy: length in code points, common passwords, max length", async () => {
    const { api } = await newEnvironment();
    // Seven emoji are 14 UTF-16 units but 7 characters: too short for the default minimum of 8.
    const emojiShort = await api.post("/users", { password: "🔑".repeat(7) });
    expectProblem(emojiShort, 400, "password_too_weak");
    expect(problemFields(emojiShort)).toEqual(["password"]);
    expect((await createUser(api, { password: "🔑".repeat(8) })).hasPassword).toBe(true);
    expectProblem(await api.post("/users", { password: "Password1" }), 400, "password_too_weak");
    expectProblem(await api.post("/users", { password: "x".repeat(257) }), 400, "password_too_weak");
    // Over the hard input cap the body is malformed rather than weak.
    expectProblem(await api.post("/users", { password: "x".repeat(1025) }), 400, "invalid_request");
  });

  it("a refused create leaves nothing behind: the email stays free", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    expectProblem(await api.post("/users", { email, password: "password" }), 400, "password_too_weak");
    expectProblem(await api.post("/users", { email, publicMetadata: { blob: "x".repeat(600) } }), 400, "metadata_too_large");
    expect((await createUser(api, { email })).email).toBe(email);
  });

  describe("metadata limits at creation (UTF-8 bytes of the JSON)", () => {
    // {"k":"…"} is 8 bytes of punctuation and key around the value.
    const bagOf = (bytes: number) => ({ k: "x".repeat(bytes - 8) });

    it.each([
      ["publicMetadata", 512],
      ["unsafeMetadata", 512],
      ["privateMetadata", 4096],
    ] as const)("%s accepts exactly %i bytes and refuses one more", async (bag, limit) => {
      const { api } = await newEnvironment();
      const atLimit = await createUser(api, { [bag]: bagOf(limit) });
      expect(Buffer.byteLength(JSON.stringify(atLimit[bag]))).toBe(limit);
      const over = await api.post("/users", { [bag]: bagOf(limit + 1) });
      expectProblem(over, 400, "metadata_too_large");
      expect(problemFields(over)).toEqual([bag]);
      expect(over.body.detail).toContain(bag);
    });

    it("counts bytes, not characters: 200 three-byte characters exceed 512", async () => {
      const { api } = await newEnvironment();
      expectProblem(await api.post("/users", { publicMetadata: { k: "€".repeat(200) } }), 400, "metadata_too_large");
      expect((await createUser(api, { publicMetadata: { k: "€".repeat(168) } })).publicMetadata).toEqual({ k: "€".repeat(168) });
    });
  });

  it("keeps nested metadata of every JSON type exactly", async () => {
    const { api } = await newEnvironment();
    const publicMetadata = { s: "x", n: -1.5, big: 12345678901234, t: true, f: false, nil: null, list: [1, "two", { three: 3 }], o: { deep: { er: [] } } };
    const user = await createUser(api, { publicMetadata });
    expect(user.publicMetadata).toEqual(publicMetadata);
    expect((await api.get(`/users/${user.id}`)).body.publicMetadata).toEqual(publicMetadata);
  });

  it("answers 409 identifier_exists for an email already used in the environment", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail();
    await createUser(api, { email });
    const res = await api.post("/users", { email, password: STRONG_PASSWORD });
    expectProblem(res, 409, "identifier_exists");
  });

  it("answers 401 unauthorized for a missing, malformed, unknown or revoked secret key", async () => {
    const { api, environmentId, publishableKey, secretKey } = await newEnvironment();
    const revoked = await revokedSecretKey(environmentId);
    for (const authorization of [
      undefined,
      "",
      secretKey,
      `Basic ${secretKey}`,
      `Bearer ${publishableKey}`,
      `Bearer sk_test_${"a".repeat(40)}`,
      `Bearer ${secretKey}x`,
      `Bearer ${revoked}`,
    ]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (authorization !== undefined) headers.authorization = authorization;
      const res = await call("POST", "/api/server/v1/users", { rawBody: "{}", headers });
      expectProblem(res, 401, "unauthorized");
    }
    // None of the refused requests created anything.
    expect((await api.post("/users/search", {})).body.items).toHaveLength(0);
    // The key itself still works, also with a lower-case scheme.
    expect((await serverApi(secretKey).post("/users", {})).status).toBe(201);
    const lower = await api.raw("POST", "/users", { body: {}, headers: { authorization: `bearer ${secretKey}` } });
    expect(lower.status).toBe(201);
  });

  it("answers 413 payload_too_large for a body over 64 KiB", async () => {
    const { api } = await newEnvironment();
    const res = await api.post("/users", { firstName: "x".repeat(70_000) });
    expectProblem(res, 413, "payload_too_large");
  });

  it("answers 415 for a body that is not declared as JSON", async () => {
    const { api } = await newEnvironment();
    const res = await api.raw("POST", "/users", { rawBody: JSON.stringify({ firstName: "Ada" }), headers: { "content-type": "text/plain" } });
    expectProblem(res, 415, "unsupported_media_type");
  });
});

describe("create user writes its audit row", () => {
  it("records user.created with the secret key as actor, in the same statement as the user", async () => {
    const { getDb } = await import("@/db/client");
    const { events } = await import("@/db/schema");
    const { eq } = await import("drizzle-orm");
    const { api } = await newEnvironment();
    const created = await api.post("/users", { email: uniqueEmail() });
    const rows = await getDb().select().from(events).where(eq(events.subjectId, created.body.id));
    expect(rows.map((r) => [r.type, r.actorType])).toEqual([["user.created", "secret_key"]]);
    expect(rows[0]?.requestId).toMatch(/^req_/);
  });
});
