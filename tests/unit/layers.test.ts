import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/*
 * The layer rules of eslint.config.mjs (STYLE rule 17) on fixtures: each forbidden
 * import is reported with its rule's message, in the alias and the relative
 * spellings, and the imports that point down pass. The fixtures exist only as text.
 */

const root = path.resolve(import.meta.dirname, "../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

const MESSAGES = {
  pageToDb: "app/ and components/ never import db/",
  domainToKit: "lib/<domain> never imports the HTTP kit (lib/http)",
  domainToRunner: "lib/<domain> never imports lib/hosted or lib/dashboard",
  dbToLib: "db/ imports nothing of lib/",
};

/** The layer reports for one import in a file at `file` (relative to the project). */
async function layerReports(file: string, specifier: string): Promise<string[]> {
  const code = `import * as imported from "${specifier}";\nexport const used = imported;\n`;
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

const forbidden: [file: string, specifier: string, message: keyof typeof MESSAGES][] = [
  ["app/(hosted)/layer-fixture/page.tsx", "@/db/client", "pageToDb"],
  ["app/(hosted)/layer-fixture/page.tsx", "../../../db/schema", "pageToDb"],
  ["app/api/server/v1/layer-fixture/route.ts", "@/db/client", "pageToDb"],
  ["components/hosted/layer-fixture.tsx", "@/db/schema", "pageToDb"],
  ["lib/users/layer-fixture.ts", "../http/route", "domainToKit"],
  ["lib/users/layer-fixture.ts", "@/lib/http/pipeline", "domainToKit"],
  ["lib/oauth/providers/layer-fixture.ts", "../../http/problem", "domainToKit"],
  ["lib/users/layer-fixture.ts", "../../lib/http/cors", "domainToKit"],
  ["lib/layer-fixture.ts", "./http/route", "domainToKit"],
  // The leaves are domains here: every domain imports them, so they import no kit.
  ["lib/operation/layer-fixture.ts", "../http/request-context", "domainToKit"],
  ["lib/flows/layer-fixture.ts", "@/lib/hosted/hosted-context", "domainToRunner"],
  ["lib/users/layer-fixture.ts", "@/lib/hosted/load-operation", "domainToRunner"],
  ["lib/organizations/layer-fixture.ts", "../hosted/run-action", "domainToRunner"],
  ["lib/users/layer-fixture.ts", "../dashboard/run-operator-operation", "domainToRunner"],
  ["db/layer-fixture.ts", "../lib/config/runtime", "dbToLib"],
  ["db/layer-fixture.ts", "@/lib/errors", "dbToLib"],
  ["db/nested/layer-fixture.ts", "../../lib/log", "dbToLib"],
];

const allowed: [file: string, specifier: string][] = [
  ["lib/users/layer-fixture.ts", "../operation/endpoint"],
  ["lib/users/layer-fixture.ts", "@/lib/operation/caller"],
  ["lib/users/layer-fixture.ts", "@/db/client"],
  ["lib/users/layer-fixture.ts", "../flows/hosted-flow"],
  // A folder that only starts like a forbidden one is another folder.
  ["lib/users/layer-fixture.ts", "../https-proxy/agent"],
  ["lib/hosted/layer-fixture.ts", "../http/pipeline"],
  ["lib/dashboard/layer-fixture.ts", "@/lib/http/pipeline"],
  ["app/api/server/v1/layer-fixture/route.ts", "@/lib/http/route"],
  ["app/(hosted)/layer-fixture/page.tsx", "@/lib/hosted/load-operation"],
  ["components/hosted/layer-fixture.tsx", "@/lib/hosted/i18n/messages"],
  ["db/layer-fixture.ts", "./config"],
  ["db/layer-fixture.ts", "@/db/schema"],
];

describe("layer rules (eslint no-restricted-imports)", () => {
  it.each(forbidden)("%s may not import %s", async (file, specifier, message) => {
    const reports = await layerReports(file, specifier);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toContain(`'${specifier}' import is restricted`);
    expect(reports[0]).toContain(MESSAGES[message]);
  });

  it.each(allowed)("%s may import %s", async (file, specifier) => {
    expect(await layerReports(file, specifier)).toEqual([]);
  });

  it.each(forbidden)("regression: %s may not reach %s through import() or require() either (no-restricted-imports does not see them)", async (file, specifier, message) => {
    const code = `export async function later() {\n  return import("${specifier}");\n}\nexport const now = () => require("${specifier}");\n`;
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    const reports = (result?.messages ?? []).filter((report) => report.ruleId === "no-restricted-syntax").map((report) => report.message);
    expect(reports).toEqual([MESSAGES[message], MESSAGES[message]].map((text) => expect.stringContaining(text)));
  });

  it.each(allowed)("%s may import() %s", async (file, specifier) => {
    const [result] = await eslint.lintText(`export const later = () => import("${specifier}");\n`, { filePath: path.join(root, file) });
    expect((result?.messages ?? []).filter((report) => report.ruleId === "no-restricted-syntax")).toEqual([]);
  });

  it("fails `eslint .` as an error, not a warning", async () => {
    const [result] = await eslint.lintText('import { getDb } from "@/db/client";\nexport const db = getDb;\n', {
      filePath: path.join(root, "app/(hosted)/layer-fixture/page.tsx"),
    });
    expect(result?.errorCount).toBe(1);
  });
});
