import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

// `npm test` is the one command CI runs, so the static checks live in the suite too.
describe("static checks", () => {
  it("type-checks with tsc --noEmit", () => {
    const result = spawnSync("node_modules/.bin/tsc", ["--noEmit"], { encoding: "utf8", timeout: 120_000 });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("passes eslint with no warnings", () => {
    const result = spawnSync("node_modules/.bin/eslint", [".", "--max-warnings=0"], { encoding: "utf8", timeout: 180_000 });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
