import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };
const shared = {
  globalSetup: ["tests/helpers/global-setup.ts"],
  setupFiles: ["tests/helpers/database-per-file.ts"],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // next-auth imports `next/server` without an extension, which Node's ESM loader cannot
  // resolve (next has no exports map); bundled through Vite like Next.js does, it resolves.
  server: { deps: { inline: ["next-auth"] } },
};

/**
 * Three projects: the whole unit + API suite on the configured database
 * (TEST_DATABASE_URL, else PGlite), a smoke subset that always runs on PGlite, and
 * the production-server tests (real processes over HTTP; Postgres only, else skipped).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { ...shared, name: "api", include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts"] },
      },
      {
        resolve: { alias },
        test: {
          ...shared,
          name: "embedded",
          include: ["tests/embedded/**/*.test.ts"],
          env: { GATEHOUSE_TEST_DB: "pglite" },
        },
      },
      {
        resolve: { alias },
        test: { ...shared, name: "server", include: ["tests/server/**/*.test.ts"] },
      },
    ],
  },
});
