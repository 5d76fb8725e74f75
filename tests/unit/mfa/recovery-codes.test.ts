import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { recoveryCodes } from "@/db/schema";
import { normalizeRecoveryCode, replaceRecoveryCodes, spendRecoveryCode } from "@/lib/mfa/recovery-codes";
import { createUser, newEnvironment } from "../../helpers/fixtures";

async function newUser() {
  const { api, environmentId } = await newEnvironment();
  const user = await createUser(api, {});
  return { environmentId, userId: user.id };
}

describe("recovery codes", () => {
  it("ten distinct codes of 50 bits, xxxxx-xxxxx in Crockford Base32, stored only as keyed hashes", async () => {
    const { environmentId, userId } = await newUser();
    const codes = await replaceRecoveryCodes(getDb(), environmentId, userId);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    const stored = await getDb().select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    expect(stored).toHaveLength(10);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      for (const code of codes) expect(row.codeHash).not.toContain(code.replace("-", ""));
    }
  });

  it("reads a code however it is typed: case, spaces, dashes, and O/I/L for 0/1", () => {
    expect(normalizeRecoveryCode("ab2cd-ef3gh")).toBe("ab2cdef3gh");
    expect(normalizeRecoveryCode(" AB2CD EF3GH ")).toBe("ab2cdef3gh");
    expect(normalizeRecoveryCode("ab-2c-d-ef3gh")).toBe("ab2cdef3gh");
    expect(normalizeRecoveryCode("O0ILi-abcde")).toBe("00111abcde");
    for (const hostile of ["", "abcde", "abcde-abcdef", "abcde-abcdu", "abcde_abcde", "ábcde-abcde", "abcde-abcd\u0000"]) {
      expect(normalizeRecoveryCode(hostile), hostile).toBeNull();
    }
  });

  it("each code works once, in any spelling, and only for its own user", async () => {
    const { environmentId, userId } = await newUser();
    const other = await newUser();
    const [code = ""] = await replaceRecoveryCodes(getDb(), environmentId, userId);
    expect(await spendRecoveryCode(getDb(), other.userId, code)).toBe(false);
    expect(await spendRecoveryCode(getDb(), userId, code.toUpperCase().replace("-", " "))).toBe(true);
    expect(await spendRecoveryCode(getDb(), userId, code)).toBe(false);
    expect(await spendRecoveryCode(getDb(), userId, "not a code")).toBe(false);
  });

  it("a new set kills the old one", async () => {
    const { environmentId, userId } = await newUser();
    const old = await replaceRecoveryCodes(getDb(), environmentId, userId);
    const fresh = await replaceRecoveryCodes(getDb(), environmentId, userId);
    for (const code of old) expect(await spendRecoveryCode(getDb(), userId, code)).toBe(false);
    expect(await spendRecoveryCode(getDb(), userId, fresh[3] ?? "")).toBe(true);
  });

  it("of 10 concurrent uses of one code, exactly one wins (one conditional UPDATE)", async () => {
    const { environmentId, userId } = await newUser();
    const [code = ""] = await replaceRecoveryCodes(getDb(), environmentId, userId);
    const results = await Promise.all(Array.from({ length: 10 }, () => spendRecoveryCode(getDb(), userId, code)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
