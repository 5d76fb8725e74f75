import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships a WASM build and data files that the bundler must not touch;
  // argon2 is a native addon; undici (the OAuth provider fetch) is Node-only.
  serverExternalPackages: ["@electric-sql/pglite", "@node-rs/argon2", "postgres", "undici"],
  poweredByHeader: false,
  reactStrictMode: true,
  typescript: { tsconfigPath: "./tsconfig.json" },
  outputFileTracingIncludes: { "/*": ["./db/migrations/**/*"] },
};

export default config;
