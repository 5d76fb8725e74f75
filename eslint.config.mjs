import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

/*
 * Layers (STYLE rule 17), enforced so that every import points down:
 *   app/, components/  →  lib/hosted, lib/dashboard, the kit lib/http  →  lib/<domain>, lib/operation, lib/flows  →  db/
 * A regex matches the `@/` alias and relative spellings alike (`../http/x`, `../../lib/http/x`).
 * Each file matches one of these blocks only: a later block's no-restricted-imports would replace an earlier one's.
 */
const LAYER_MESSAGES = {
  pageToDb: "app/ and components/ never import db/: read through loadOperation (lib/hosted/load-operation.ts), or a lib/ function that opens the database itself.",
  domainToKit: "lib/<domain> never imports the HTTP kit (lib/http): rules see no HTTP. Use the leaf lib/operation (operations, RequestContext, Caller, effects), or move what you need there or into the domain.",
  domainToRunner: "lib/<domain> never imports lib/hosted or lib/dashboard: those run domain operations, not the other way round. Move the rule into the domain (or lib/flows), and let the page or action pass what it needs.",
  dbToLib: "db/ imports nothing of lib/: the database layer is below every rule. Runtime configuration it needs lives in db/ (db/config.ts).",
};

/** A module specifier that names `<folder>` at the root of the project or of lib/ (alias or relative). */
const rootFolder = (folder) => `^(?:@/|(?:\\.\\.?/)+)${folder}(?:/|$)`;
const libFolder = (folders) => `^(?:@/lib/|(?:\\.\\.?/)+(?:lib/)?)(?:${folders})(?:/|$)`;

/**
 * The same layer rules for `import()` and `require()`, which no-restricted-imports does
 * not see. The regex goes into an esquery selector, whose regex literal cannot hold a
 * slash: each "/" is written as \x2F.
 */
const dynamicImports = (rules) => [
  "error",
  ...rules.flatMap(({ regex, message }) => {
    const literal = `/${regex.replaceAll("/", "\\x2F")}/`;
    return [
      { selector: `ImportExpression[source.value=${literal}]`, message },
      { selector: `CallExpression[callee.name='require'][arguments.0.value=${literal}]`, message },
    ];
  }),
];

/** lib/ folders that are not domains: the kit, the runners of operations, the server process, the OpenAPI generator. */
const NOT_DOMAINS = ["http", "hosted", "dashboard", "server", "openapi"];

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
  {
    files: ["app/**", "components/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: rootFolder("db"), message: LAYER_MESSAGES.pageToDb }] }],
      "no-restricted-syntax": dynamicImports([{ regex: rootFolder("db"), message: LAYER_MESSAGES.pageToDb }]),
    },
  },
  {
    files: ["lib/**"],
    ignores: NOT_DOMAINS.map((folder) => `lib/${folder}/**`),
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: libFolder("http"), message: LAYER_MESSAGES.domainToKit },
            { regex: libFolder("hosted|dashboard"), message: LAYER_MESSAGES.domainToRunner },
          ],
        },
      ],
      "no-restricted-syntax": dynamicImports([
        { regex: libFolder("http"), message: LAYER_MESSAGES.domainToKit },
        { regex: libFolder("hosted|dashboard"), message: LAYER_MESSAGES.domainToRunner },
      ]),
    },
  },
  {
    files: ["db/**"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: rootFolder("lib"), message: LAYER_MESSAGES.dbToLib }] }],
      "no-restricted-syntax": dynamicImports([{ regex: rootFolder("lib"), message: LAYER_MESSAGES.dbToLib }]),
    },
  },
];

export default config;
