import { describe, expect, it } from "vitest";
import { likeContains } from "@/lib/users/search-users";

describe("likeContains", () => {
  it("wraps the term in % wildcards", () => {
    expect(likeContains("ada")).toBe("%ada%");
  });

  it.each([
    ["%", "%\\%%"],
    ["_", "%\\_%"],
    ["\\", "%\\\\%"],
    ["50%_off\\", "%50\\%\\_off\\\\%"],
    ["\\%", "%\\\\\\%%"],
  ])("escapes LIKE metacharacters in %j", (term, pattern) => {
    expect(likeContains(term)).toBe(pattern);
  });

  it("leaves SQL quotes alone: they travel as a bound parameter, not as SQL", () => {
    expect(likeContains("' OR 1=1 --")).toBe("%' OR 1=1 --%");
  });

  it("every metacharacter in the result is either a wrapper or escaped", () => {
    const pattern = likeContains("a%b_c\\d%%__\\\\");
    const inner = pattern.slice(1, -1);
    // Strip escaped pairs; no bare %, _ or \ may remain.
    expect(inner.replace(/\\[\\%_]/g, "")).not.toMatch(/[\\%_]/);
  });
});
