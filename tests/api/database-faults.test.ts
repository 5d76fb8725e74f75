import { randomUUID } from "node:crypto";
import net from "node:net";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isConnectionFault } from "@/db/connection-faults";
import { closeDb, getDb, openDatabase, queryRows } from "@/db/client";
import { events, sessions, users } from "@/db/schema";
import { call, expectProblem, type ApiResponse } from "../helpers/api";
import { clientApi } from "../helpers/client";
import { createUser, newEnvironment, openSession, STRONG_PASSWORD, uniqueEmail } from "../helpers/fixtures";

/**
 * Database faults (issue 7 item 15, CONTRACT §4): Postgres dropping the service's
 * connections (a restart, a failover, `pg_terminate_backend`) or being unreachable
 * must never give a 500. Requests go through the route handlers on the service's
 * real postgres.js pool; a separate admin connection terminates its backends. Only
 * Postgres has backends to terminate; PGlite runs inside this process.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
if (!onPostgres) {
  console.warn(
    "\n!!! SKIPPED tests/api/database-faults.test.ts: it needs PostgreSQL (set TEST_DATABASE_URL). " +
      "The embedded PGlite database has no server connections to terminate.\n",
  );
}

type Kind = "boot probe" | "current user" | "token refresh" | "login" | "ban/unban";

interface Answer {
  kind: Kind;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
  text: string;
}

const LOAD_MS = 4_000;
const TERMINATIONS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cookie header of a client's jar. */
function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** A TCP relay in front of Postgres that can be cut (every connection dropped, new ones refused) and restored. */
async function startCuttableRelay(target: URL) {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (() => {
      const url = new URL(target);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    })(),
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      });
    },
    restore: () => listen(port),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}

describe.skipIf(!onPostgres)("database faults", () => {
  let admin: postgres.Sql;

  beforeAll(() => {
    admin = postgres(process.env.DATABASE_URL ?? "", { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await admin?.end({ timeout: 5 });
  });

  /** Terminates every backend on this file's database but the admin's own: the service's whole pool. */
  async function terminateServiceBackends(): Promise<number> {
    const rows = await admin`
      select pg_terminate_backend(pid) as terminated from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`;
    return rows.filter((row) => row.terminated).length;
  }

  it("regression: pg_terminate_backend under boot-probe load gave 500s; now reads answer 200 (or 503), writes 200 or 503 with Retry-After, nothing half-written", async () => {
    const { api, publishableKey } = await newEnvironment();
    // Logins repeat as fast as they can; the per-IP and per-email limits would otherwise answer 429.
    expect((await api.patch("/environment", { rateLimits: { enabled: false } })).status).toBe(200);
    const reader = await createUser(api, { email: uniqueEmail("reader"), password: STRONG_PASSWORD });
    const signer = await createUser(api, { email: uniqueEmail("signer"), password: STRONG_PASSWORD });
    const toggled = await createUser(api, { email: uniqueEmail("toggled"), password: STRONG_PASSWORD });
    for (let i = 0; i < 3; i++) await openSession(toggled.environmentId, toggled.id);

    const browser = clientApi(publishableKey);
    expect((await browser.post("/auth/login", { email: reader.email, password: STRONG_PASSWORD })).status).toBe(200);
    const client = { "x-api-key": publishableKey, cookie: cookieHeader(browser.jar) };

    const answers: Answer[] = [];
    const thrown: unknown[] = [];
    let running = true;
    const record = async (kind: Kind, send: () => Promise<ApiResponse>) => {
      try {
        const res = await send();
        answers.push({ kind, status: res.status, code: res.body?.code, retryAfter: res.headers.get("retry-after"), text: res.text.slice(0, 300) });
        return res;
      } catch (error) {
        thrown.push(error);
        return null;
      }
    };
    const loop = async (kind: Kind, send: () => Promise<ApiResponse>) => {
      while (running) await record(kind, send);
    };
    // Ban, unban, ban, ...: each a transaction of the status, the session revocation and the audit row.
    const toggle = async () => {
      let banned = false;
      while (running) {
        const res = await record("ban/unban", () => api.post(`/users/${toggled.id}/${banned ? "unban" : "ban"}`));
        if (res?.status === 200) banned = !banned;
      }
    };
    const login = () => call("POST", "/_svc/auth/login", { headers: { "x-api-key": publishableKey }, body: { email: signer.email, password: STRONG_PASSWORD } });

    const load = [
      ...Array.from({ length: 10 }, () => loop("boot probe", () => call("GET", "/_svc/client", { headers: client }))),
      ...Array.from({ length: 2 }, () => loop("current user", () => call("GET", "/_svc/users/me", { headers: client }))),
      ...Array.from({ length: 2 }, () => loop("token refresh", () => call("POST", "/_svc/auth/token", { headers: client }))),
      ...Array.from({ length: 2 }, () => loop("login", login)),
      toggle(),
    ];
    const terminated: number[] = [];
    for (let round = 0; round < TERMINATIONS; round++) {
      await sleep(LOAD_MS / (TERMINATIONS + 1));
      terminated.push(await terminateServiceBackends());
    }
    await sleep(LOAD_MS / (TERMINATIONS + 1));
    running = false;
    await Promise.all(load);

    const tally: Record<string, number> = {};
    for (const { kind, status } of answers) tally[`${kind} ${status}`] = (tally[`${kind} ${status}`] ?? 0) + 1;
    console.info(`database faults: terminated ${terminated.join(", ")} backends; answers ${JSON.stringify(tally)}`);

    // Every round found live backends: the pool had reconnected after the previous one.
    for (const count of terminated) expect(count).toBeGreaterThan(0);
    expect(thrown).toEqual([]);
    const unexpected = answers.filter((answer) => answer.status !== 200 && answer.status !== 503);
    expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([]);
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(answer.code, answer.text).toBe("service_unavailable");
      expect(Number(answer.retryAfter), answer.text).toBeGreaterThan(0);
    }
    expect(answers.filter((a) => a.kind === "boot probe" && a.status === 200).length).toBeGreaterThan(50);

    // Nothing half-written. A login is one statement (session, its audit row, the
    // failure-count reset): every session of the signer has its session.created row
    // and the other way round, whether the client heard 200 or 503.
    const db = getDb();
    const signerSessions = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, signer.id));
    const created = await db
      .select({ data: events.data })
      .from(events)
      .where(and(eq(events.subjectId, signer.id), eq(events.type, "session.created")));
    expect(created.map((event) => event.data.sessionId).sort()).toEqual(signerSessions.map((session) => session.id).sort());
    expect(signerSessions.length).toBeGreaterThanOrEqual(answers.filter((a) => a.kind === "login" && a.status === 200).length);

    // A ban is one transaction: the user's status is what the last ban/unban event
    // says, and the sessions opened before the first ban are all revoked.
    const toggles = await db
      .select({ type: events.type })
      .from(events)
      .where(and(eq(events.subjectId, toggled.id), inArray(events.type, ["user.banned", "user.unbanned"])))
      .orderBy(asc(events.createdAt));
    expect(toggles.some((event) => event.type === "user.banned"), "at least one ban committed").toBe(true);
    const [row] = await db.select({ status: users.status }).from(users).where(eq(users.id, toggled.id));
    expect(row?.status).toBe(toggles.at(-1)?.type === "user.banned" ? "banned" : "active");
    expect(await db.select().from(sessions).where(and(eq(sessions.userId, toggled.id), eq(sessions.status, "active")))).toEqual([]);

    // The pool recovered: a plain request after the storm answers normally.
    const after = await call("GET", "/_svc/client", { headers: client });
    expect(after.status).toBe(200);
    expect(after.body.authenticated).toBe(true);
  }, 60_000);

  it("regression: a transaction whose connection is terminated is rolled back, and what its callback sends afterwards never runs outside it", async () => {
    const { environmentId } = await newEnvironment();
    // A pool of one, so the connection the transaction lost is the one that reconnects.
    const handle = openDatabase({ url: process.env.DATABASE_URL, poolSize: 1 });
    const marker = randomUUID();
    const mark = (type: string) => ({ environmentId, type, actorType: "system" as const, data: { marker } });
    try {
      let callback: Promise<void> | undefined;
      const outcome = handle.db.transaction((tx) => (callback = (async () => {
        await tx.insert(events).values(mark("test.before_drop"));
        const [backend] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
        await admin`select pg_terminate_backend(${backend?.pid ?? 0})`;
        // Someone else's queries reopen the pool's only connection on a new backend.
        let reopened = false;
        for (let tries = 0; tries < 5 && !reopened; tries++) reopened = await handle.db.execute(sql`select 1`).then(() => true, () => false);
        expect(reopened).toBe(true);
        await tx.insert(events).values(mark("test.after_drop"));
      })()));
      const error = await outcome.then(() => null, (caught: unknown) => caught);
      expect(isConnectionFault(error), String(error)).toBe(true);
      // The transaction rejects as soon as its connection closes; its callback runs on to the end.
      await callback?.catch(() => {});
      const rows = await queryRows<{ type: string }>(getDb(), sql`select type from events where data->>'marker' = ${marker}`);
      expect(rows).toEqual([]);
      // The pool still serves queries.
      expect(await queryRows(handle.db, sql`select 1 as one`)).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });

  describe("with the database unreachable", () => {
    let relay: Awaited<ReturnType<typeof startCuttableRelay>>;
    const directUrl = process.env.DATABASE_URL ?? "";

    beforeAll(async () => {
      // The service's pool goes through a relay this test can cut.
      relay = await startCuttableRelay(new URL(directUrl));
      await closeDb();
      process.env.DATABASE_URL = relay.url;
    });
    afterAll(async () => {
      await closeDb();
      process.env.DATABASE_URL = directUrl;
      await relay?.close();
    });

    it("reads and writes answer 503 service_unavailable with Retry-After within seconds, and 200 once it is back", async () => {
      const { api, publishableKey } = await newEnvironment();
      const user = await createUser(api, { email: uniqueEmail("unreachable"), password: STRONG_PASSWORD });
      const browser = clientApi(publishableKey);
      expect((await browser.post("/auth/login", { email: user.email, password: STRONG_PASSWORD })).status).toBe(200);
      const client = { "x-api-key": publishableKey, cookie: cookieHeader(browser.jar) };

      await relay.cut();
      const started = Date.now();
      const answers = [
        await call("GET", "/_svc/client", { headers: client }),
        await call("GET", "/_svc/users/me", { headers: client }),
        await call("POST", "/_svc/auth/token", { headers: client }),
        await call("POST", "/_svc/auth/login", { headers: { "x-api-key": publishableKey }, body: { email: user.email, password: STRONG_PASSWORD } }),
        await api.get(`/users/${user.id}`),
        await api.patch(`/users/${user.id}`, { firstName: "Unreachable" }),
      ];
      for (const res of answers) {
        expectProblem(res, 503, "service_unavailable");
        expect(res.headers.get("retry-after")).toBe("2");
      }
      expect(Date.now() - started).toBeLessThan(15_000);

      await relay.restore();
      let probe = await call("GET", "/_svc/client", { headers: client });
      for (let i = 0; i < 20 && probe.status !== 200; i++) {
        await sleep(250);
        probe = await call("GET", "/_svc/client", { headers: client });
      }
      expect(probe.status).toBe(200);
      expect(probe.body.authenticated).toBe(true);
      expect((await api.get(`/users/${user.id}`)).body.firstName).not.toBe("Unreachable");
    }, 60_000);
  });
});
