import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { databaseHandle, queryRows } from "@/db/client";
import { openSession } from "../helpers/fixtures";
import { newEnvironment, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

// The embedded path: the same migrations and code on PGlite, whatever TEST_DATABASE_URL says.
describe("embedded database (PGlite)", () => {
  it("runs on PGlite with pg_trgm installed by the migrations", async () => {
    const handle = databaseHandle();
    expect(handle.kind).toBe("pglite");
    const rows = await queryRows<{ extname: string }>(handle.db, sql`select extname from pg_extension where extname = 'pg_trgm'`);
    expect(rows).toHaveLength(1);
  });

  it("creates, searches, updates metadata, bans and deletes a user", async () => {
    const { api } = await newEnvironment();
    const email = uniqueEmail("Grace.Hopper");
    const created = await api.post("/users", { email, password: STRONG_PASSWORD, firstName: "Grace", lastName: "Hopper" });
    expect(created.status).toBe(201);
    const id = created.body.id;

    const found = await api.post("/users/search", { email: "HOPPER", name: "grace h" });
    expect(found.status).toBe(200);
    expect(found.body.items.map((u: { id: string }) => u.id)).toEqual([id]);

    const patched = await api.patch(`/users/${id}/metadata`, { publicMetadata: { a: { b: 1 } } });
    expect(patched.body.publicMetadata).toEqual({ a: { b: 1 } });

    await openSession(created.body.environmentId, id);
    const banned = await api.post(`/users/${id}/ban`);
    expect(banned.body.status).toBe("banned");
    const sessions = await api.get(`/users/${id}/sessions`);
    expect(sessions.body.items.map((s: { status: string }) => s.status)).toEqual(["revoked"]);

    const deleted = await api.delete(`/users/${id}`);
    expect(deleted.body.status).toBe("deleted");
    expect((await api.post("/users", { email })).status).toBe(201);
  });
});
