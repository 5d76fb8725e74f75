import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "test-results/**", "next-env.d.ts"] },
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error", "info"] }],
    },
  },
  // Scripts, benchmarks and tests talk to a terminal; test doubles of JSON bodies are loosely typed.
  { files: ["scripts/**", "bench/**", "tests/**"], rules: { "no-console": "off", "@typescript-eslint/no-explicit-any": "off" } },
];

export default config;
