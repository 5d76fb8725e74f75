import { randomBytes } from "node:crypto";
import bcrypt from "bcryptjs";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { createEnvironment } from "@/lib/environments/create-environment";
import { route } from "@/lib/http/route";
import { importUsersEndpoint } from "@/lib/users/server-endpoints";
import { describeFlags, parseFlags, type FlagSpec } from "./args";
import { benchDatabaseUrl, describeUrl, openBenchDatabase } from "./bench-database";
import { machineLoad } from "./machine";

const FLAGS = {
  users: { default: 100_000, description: "users in the one import request (at most 100,000)", min: 1 },
  digests: { default: 64, description: "distinct bcrypt digests (cost 10) the users share: import never hashes, so reuse is free" },
} satisfies Record<string, FlagSpec>;

export const IMPORT_USAGE = `npm run bench -- import [options]
  Users imported per second by one POST /api/server/v1/users/import of bcrypt
  digests, through the route handler in this process (streamed NDJSON in and out).
${describeFlags(FLAGS)}`;

const TARGET_USERS_PER_SECOND = 5_000;
const APP_NAME = "bench-import";
const BENCH_SECRET = "bench-only-master-secret-0123456789abcdefghijklm";

/** The NDJSON body, produced as the handler reads it: the bench never holds the whole file either. */
function ndjsonBody(count: number, digests: string[], runId: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      if (next >= count) return controller.close();
      const lines: string[] = [];
      for (const end = Math.min(count, next + 1_000); next < end; next++) {
        lines.push(
          JSON.stringify({
            email: `import-${runId}-${next}@example.com`,
            externalId: `legacy-${runId}-${next}`,
            passwordHasher: "bcrypt",
            passwordDigest: digests[next % digests.length],
            createdAt: "2020-01-01T00:00:00.000Z",
            firstName: "Imported",
            publicMetadata: { plan: "legacy" },
          }),
        );
      }
      controller.enqueue(encoder.encode(`${lines.join("\n")}\n`));
    },
  });
}

export async function runImportBench(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, FLAGS);
  const url = benchDatabaseUrl();
  process.env.DATABASE_URL = url;
  process.env.GATEHOUSE_SECRET ??= BENCH_SECRET;
  console.log(
    [
      "Gatehouse bench: user import",
      `  measures   users/s of one POST /users/import with ${flags.users} bcrypt users (route handler in process, real Postgres)`,
      `  target     >= ${TARGET_USERS_PER_SECOND} users/s`,
      `  database   ${describeUrl(url)}`,
      `  machine    ${machineLoad()}`,
      "",
    ].join("\n"),
  );
  const handle = await openBenchDatabase(url);
  await handle.db.execute(sql`delete from applications where name = ${APP_NAME}`);
  await handle.close();
  const environment = await createEnvironment(getDb(), { name: APP_NAME });
  const digests = Array.from({ length: flags.digests }, (_, index) => bcrypt.hashSync(`password-${index}`, 10));
  const runId = randomBytes(4).toString("hex");
  const handler = route(importUsersEndpoint);
  const request = new Request("http://localhost:3000/api/server/v1/users/import", {
    method: "POST",
    headers: { authorization: `Bearer ${environment.secretKey}`, "content-type": "application/x-ndjson" },
    body: ndjsonBody(flags.users, digests, runId),
    duplex: "half",
  } as RequestInit);

  const started = performance.now();
  const response = await handler(request, { params: Promise.resolve({}) });
  if (response.status !== 200 || !response.body) throw new Error(`import answered ${response.status}: ${await response.text()}`);
  let created = 0;
  let refused = 0;
  let firstRefusal: string | undefined;
  let partial = "";
  let reported = 0;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    partial += decoder.decode(value, { stream: true });
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      if (line.includes('"id"')) created++;
      else {
        refused++;
        firstRefusal ??= line;
      }
    }
    const answered = created + refused;
    if (Math.floor(answered / 10_000) > Math.floor(reported / 10_000)) process.stdout.write(`\r  ${answered} / ${flags.users}`);
    reported = answered;
  }
  const seconds = (performance.now() - started) / 1000;
  const rate = created / seconds;
  console.log(`\r  imported ${created} users, refused ${refused}, in ${seconds.toFixed(2)} s: ${Math.round(rate)} users/s`);
  if (firstRefusal) console.log(`  first refusal: ${firstRefusal}`);
  console.log(`  ${rate >= TARGET_USERS_PER_SECOND ? "PASS" : "FAIL"}: target ${TARGET_USERS_PER_SECOND} users/s`);
}
