import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** What a production build depends on: a change to any of these makes `.next` stale. */
const SOURCE_DIRS = ["app", "lib", "db", "emails", "components"];
const SOURCE_FILES = ["next.config.ts", "package-lock.json", "instrumentation.ts", "proxy.ts"];

export type BuildState = "fresh" | "stale" | "missing";

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(entry).map((child) => newestMtime(path.join(entry, child))));
}

/** Whether `.next` holds a build newer than every source it was built from. */
export function buildState(root = process.cwd()): BuildState {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return "missing";
  const builtAt = fs.statSync(buildId).mtimeMs;
  const changedAt = Math.max(...[...SOURCE_DIRS, ...SOURCE_FILES].map((entry) => newestMtime(path.join(root, entry))));
  return builtAt > changedAt ? "fresh" : "stale";
}

/**
 * Runs `next build` with its output on our stderr/stdout; true when it succeeded.
 * Next.js serialises concurrent builds of one folder with its own lock file.
 */
export function runNextBuild(env: NodeJS.ProcessEnv, root = process.cwd()): boolean {
  const result = spawnSync(path.join(root, "node_modules/.bin/next"), ["build"], { cwd: root, stdio: ["ignore", "inherit", "inherit"], env });
  return result.status === 0;
}
