import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { importUsersFile, progressBar, type ImportProgress } from "@/lib/cli/import-users-file";
import { findEnvironment } from "@/lib/environments/context";
import { newEnvironment, uniqueEmail } from "../../helpers/fixtures";

describe("npm run cli -- users import FILE --env ENV", () => {
  it("imports a file as it reads it, reports progress and prints refused lines as the API answers them", async () => {
    const { environmentId } = await newEnvironment();
    const environment = await findEnvironment(getDb(), environmentId);
    if (!environment) throw new Error("no environment");
    const file = path.join(tmpdir(), `import-${Date.now()}.ndjson`);
    const lines = Array.from({ length: 1_100 }, (_, index) => JSON.stringify({ email: uniqueEmail(), externalId: `f-${index}` }));
    writeFileSync(file, `${[...lines, "{oops", lines[0]].join("\n")}\n`);
    const seen: ImportProgress[] = [];
    const refusals: string[] = [];
    const done = await importUsersFile(getDb(), environment, file, { onProgress: (progress) => seen.push({ ...progress }), refusals: (line) => refusals.push(line) });
    expect(done).toMatchObject({ created: 1_100, refused: 2 });
    expect(done.bytesRead).toBe(done.totalBytes);
    expect(seen.length).toBeGreaterThan(2);
    expect(refusals.map((line) => JSON.parse(line)).map((result) => [result.line, result.error.code]).sort()).toEqual([
      [1101, "invalid_request"],
      [1102, "identifier_exists"],
    ]);
    expect(progressBar(done, 10)).toBe("[##########] 100%  1,100 imported, 2 refused");
  });
});
