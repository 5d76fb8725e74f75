/**
 * `npm test`: the vitest suite (unit, API, PGlite smoke, tsc, eslint), then the
 * Playwright browser tests of the hosted pages. Browser tests need the system
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium); without it they are
 * skipped with a loud notice, except under CI=true, where that is a failure.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const ci = process.env.CI === "true" || process.env.CI === "1";

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  return result.status ?? 1;
}

function banner(lines: string[]): void {
  const rule = "!".repeat(78);
  console.error(["", rule, ...lines.map((line) => `!! ${line}`), rule, ""].join("\n"));
}

const unit = run("node_modules/.bin/vitest", ["run"]);

let browser = 0;
if (fs.existsSync(chromium)) {
  const started = Date.now();
  browser = run("node_modules/.bin/playwright", ["test"]);
  console.log(`e2e: browser tests ${browser === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
} else if (ci) {
  banner([`CI=true but no Chromium at ${chromium}: the browser tests cannot run.`, "Install it (apt-get install chromium) or set CHROMIUM_PATH."]);
  browser = 1;
} else {
  banner([`BROWSER TESTS SKIPPED: no Chromium at ${chromium}.`, "Install it (apt-get install chromium) or set CHROMIUM_PATH to run tests/e2e."]);
}

process.exit(unit !== 0 ? unit : browser);
