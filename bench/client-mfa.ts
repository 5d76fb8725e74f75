import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { sql } from "drizzle-orm";
import { generateSecret, generateSync } from "otplib";
import { hashPassword } from "@/lib/auth/password-hasher";
import { seal } from "@/lib/crypto/secret-box";
import type { CreatedEnvironment } from "@/lib/environments/create-environment";
import { benchDatabaseUrl, openBenchDatabase } from "./bench-database";
import type { LoadResult } from "./client-load";
import { BENCH_PASSWORD } from "./client-session";
import { summarize } from "./stats";

const STEP_SECONDS = 30;
const SEED_BATCH = 1_000;

interface MfaUser {
  email: string;
  secret: string;
  /** The last time step this bench spent for the user; the server accepts only later ones. */
  lastStep: number;
}

/** One sign-in to make: whose, and the code it will answer with. */
interface PlannedSignIn {
  email: string;
  code: string;
}

/**
 * Users with an authenticator app on, and which of them may sign in next. The
 * server accepts each time step once per user, and a code within one step of its
 * clock: so a user signs in at most twice a step here (with the current step's
 * code, then the next one's), and the load walks round the pool to the next user
 * who has a step left.
 */
export class MfaUserPool {
  private next = 0;

  constructor(private readonly users: MfaUser[]) {}

  get size(): number {
    return this.users.length;
  }

  take(nowMs = Date.now()): PlannedSignIn {
    const current = Math.floor(nowMs / 1000 / STEP_SECONDS);
    for (let tried = 0; tried < this.users.length; tried++) {
      const user = this.users[this.next++ % this.users.length] as MfaUser;
      const step = Math.max(user.lastStep + 1, current);
      if (step > current + 1) continue;
      user.lastStep = step;
      return { email: user.email, code: generateSync({ secret: user.secret, epoch: step * STEP_SECONDS }) };
    }
    throw new Error(`all ${this.users.length} MFA users have signed in twice this time step: raise --mfaUsers`);
  }
}

/**
 * `count` users with a password and a confirmed authenticator app, written straight
 * into the bench database (through the API each would cost an argon2 hash and
 * three requests): one password hash shared by all, a secret of its own each,
 * sealed under the same master secret the servers use.
 */
export async function seedMfaUsers(environment: CreatedEnvironment, count: number): Promise<MfaUserPool> {
  const handle = await openBenchDatabase(benchDatabaseUrl(), 1);
  try {
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const users: MfaUser[] = [];
    for (let from = 0; from < count; from += SEED_BATCH) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(SEED_BATCH, count - from) }, async () => {
          const secret = generateSecret();
          return { id: randomUUID(), email: `bench-mfa-${randomUUID()}@example.com`, secret, sealed: await seal(secret) };
        }),
      );
      const rows = JSON.stringify(batch.map(({ id, email, sealed }) => ({ id, email, sealed })));
      // One statement per batch; the foreign keys are checked at its end, after all three inserts.
      await handle.db.execute(sql`
        with input as (select * from jsonb_to_recordset(${rows}::jsonb) as t(id uuid, email text, sealed text)),
        new_users as (
          insert into users (id, environment_id, email, email_verified_at, password_hash)
          select id, ${environment.environmentId}::uuid, email, now(), ${passwordHash} from input
        ),
        addresses as (
          insert into email_addresses (environment_id, user_id, email, verified_at)
          select ${environment.environmentId}::uuid, id, email, now() from input
        )
        insert into totp_factors (user_id, environment_id, secret_sealed, confirmed_at)
        select id, ${environment.environmentId}::uuid, sealed, now() from input`);
      users.push(...batch.map(({ email, secret }) => ({ email, secret, lastStep: -1 })));
    }
    return new MfaUserPool(users);
  } finally {
    await handle.close();
  }
}

async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** One MFA sign-in by hand first: a scenario that fails outright is reported, not measured as fast errors. */
export async function precheckMfaSignIn(baseUrl: string, publishableKey: string, pool: MfaUserPool): Promise<void> {
  const headers = { "x-api-key": publishableKey };
  const { email, code } = pool.take();
  const login = await postJson(`${baseUrl}/_svc/auth/login`, headers, { email, password: BENCH_PASSWORD });
  if (login.status !== 200 || login.json.status !== "needs_second_factor") throw new Error(`login + TOTP: login answered ${login.status}: ${JSON.stringify(login.json)}`);
  const verify = await postJson(`${baseUrl}/_svc/auth/mfa/verify`, headers, { mfaToken: login.json.mfaToken, code });
  if (verify.status !== 200) throw new Error(`login + TOTP: verify answered ${verify.status}: ${JSON.stringify(verify.json)}`);
}

interface SignInContext {
  startedAt: number;
  code: string;
  mfaToken: string | null;
}

/**
 * Completed MFA sign-ins per second: each of `connections` keep-alive connections
 * signs in with the password, then answers the second factor with the mfaToken it
 * got and a fresh user's code, and starts over (a closed loop, like the other
 * scenarios). A sign-in's latency runs from the login request to the verify
 * answer; only sign-ins finished inside the measured window count.
 */
export async function mfaSignInLoad(
  baseUrl: string,
  publishableKey: string,
  pool: MfaUserPool,
  options: { connections: number; seconds: number; warmupSeconds: number },
): Promise<LoadResult> {
  const run = async (duration: number) => {
    const latencies: number[] = [];
    const result = await autocannon({
      url: baseUrl,
      connections: options.connections,
      duration,
      timeout: 10,
      headers: { "x-api-key": publishableKey, "content-type": "application/json" },
      requests: [
        {
          method: "POST",
          path: "/_svc/auth/login",
          setupRequest: (request, context) => {
            const signIn = context as SignInContext;
            const { email, code } = pool.take();
            Object.assign(signIn, { startedAt: performance.now(), code, mfaToken: null });
            return { ...request, body: JSON.stringify({ email, password: BENCH_PASSWORD }) };
          },
          onResponse: (status, body, context) => {
            (context as SignInContext).mfaToken = status === 200 ? ((JSON.parse(body) as { mfaToken?: string }).mfaToken ?? null) : null;
          },
        },
        {
          method: "POST",
          path: "/_svc/auth/mfa/verify",
          // No token (a failed login, already counted as non-2xx): start the next sign-in.
          setupRequest: (request, context) => {
            const signIn = context as SignInContext;
            return signIn.mfaToken ? { ...request, body: JSON.stringify({ mfaToken: signIn.mfaToken, code: signIn.code }) } : (null as unknown as typeof request);
          },
          onResponse: (status, _body, context) => {
            if (status === 200) latencies.push(performance.now() - (context as SignInContext).startedAt);
          },
        },
      ],
    });
    return { result, latencies };
  };
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const { result, latencies } = await run(options.seconds);
  if (latencies.length === 0) throw new Error(`login + TOTP: no sign-in completed in ${options.seconds} s (${result.non2xx} non-2xx answers)`);
  const latency = summarize(latencies);
  return {
    requestsPerSecond: latencies.length / options.seconds,
    p50: latency.p50,
    p99: latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    total: latencies.length,
  };
}
