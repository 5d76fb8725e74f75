import { defineConfig } from "@playwright/test";
import { e2eRun } from "./tests/e2e/support/run-settings";

/**
 * Browser tests of the hosted pages against the production server (`npm start`:
 * build if needed, migrate, serve) on a database of their own: a fresh Postgres
 * database when TEST_DATABASE_URL (or DATABASE_URL) is set, else PGlite in a
 * temporary folder. They drive the system Chromium; nothing is downloaded.
 */
const run = e2eRun();

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/playwright",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-report.json" }]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: run.baseUrl,
    browserName: "chromium",
    locale: "en-GB",
    launchOptions: { executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: CHROMIUM_ARGS },
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  webServer: {
    // The database and test environments are made before the server's first start, so it seeds none of its own.
    command: "node --import tsx tests/e2e/support/prepare-server.ts && npm start",
    url: `${run.baseUrl}/api/openapi.json`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(run.port),
      PUBLIC_URL: run.baseUrl,
      DATA_DIR: run.runDir,
      DATABASE_URL: run.databaseUrl ?? "",
      GATEHOUSE_SECRET: run.secret,
      EMAIL_TRANSPORT: "outbox",
      DEV_MAILBOX: "1",
      // Production serves the mailbox only with a stated proxy setup: none here, the tests connect directly.
      TRUSTED_PROXY_HOPS: "0",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
