import fs from "node:fs";
import path from "node:path";
import { databaseUrl, dataDir } from "@/db/config";

/**
 * The embedded database (PGlite) has one writer: the server. The server records its
 * pid here so the CLI can say so plainly instead of corrupting the data folder.
 */
function lockFile(): string {
  return path.join(dataDir(), "server.pid");
}

export function claimEmbeddedDatabase(pid: number): void {
  if (databaseUrl()) return;
  fs.mkdirSync(dataDir(), { recursive: true });
  fs.writeFileSync(lockFile(), String(pid));
}

export function releaseEmbeddedDatabase(): void {
  fs.rmSync(lockFile(), { force: true });
}

/** The pid of a live server holding the embedded database, or null. */
export function embeddedDatabaseHolder(): number | null {
  if (databaseUrl() || !fs.existsSync(lockFile())) return null;
  const pid = Number(fs.readFileSync(lockFile(), "utf8"));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}
