import { createReadStream, statSync } from "node:fs";
import type { Database } from "@/db/client";
import { SYSTEM_ACTOR } from "../audit/record-event";
import type { EnvironmentContext } from "../environments/context";
import { importResultValue, importUsers } from "../users/import-users";

export interface ImportProgress {
  bytesRead: number;
  totalBytes: number;
  created: number;
  refused: number;
}

/**
 * `npm run cli -- users import FILE --env ENV`: the same import as
 * `POST /users/import`, read from a file as it goes. Each refused line is written
 * to `refusals` as the API would answer it; `onProgress` follows the bytes read.
 */
export async function importUsersFile(
  db: Database,
  environment: EnvironmentContext,
  file: string,
  report: { onProgress: (progress: ImportProgress) => void; refusals: (line: string) => void },
): Promise<ImportProgress> {
  const progress: ImportProgress = { bytesRead: 0, totalBytes: statSync(file).size, created: 0, refused: 0 };
  const reader = createReadStream(file, { highWaterMark: 64 * 1024 });
  const chunks = reader[Symbol.asyncIterator]();
  // Pulled as the import reads: the file is never held whole, and the bar follows the import.
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) return controller.close();
        const chunk = next.value as Buffer;
        progress.bytesRead += chunk.byteLength;
        controller.enqueue(new Uint8Array(chunk));
      },
      cancel() {
        reader.destroy();
      },
    },
    { highWaterMark: 0 },
  );
  for await (const results of importUsers(db, environment, stream, SYSTEM_ACTOR)) {
    for (const result of results) {
      if ("id" in result) progress.created += 1;
      else {
        progress.refused += 1;
        report.refusals(JSON.stringify(importResultValue(result, "cli")));
      }
    }
    report.onProgress(progress);
  }
  return progress;
}

/** `[#########-----------]  45%  45,000 imported, 3 refused` */
export function progressBar({ bytesRead, totalBytes, created, refused }: ImportProgress, width = 30): string {
  const share = totalBytes === 0 ? 1 : Math.min(1, bytesRead / totalBytes);
  const filled = Math.round(share * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${String(Math.round(share * 100)).padStart(3)}%  ${created.toLocaleString("en")} imported, ${refused.toLocaleString("en")} refused`;
}
