import { describe, expect, it } from "vitest";
import { assertPasswordAllowed } from "@/lib/auth/password-policy";
import { AppError } from "@/lib/errors";

const policy = { minLength: 8, maxLength: 16, rejectCommon: true };

async function refusal(password: string, p = policy, field?: string): Promise<AppError | null> {
  try {
    await assertPasswordAllowed(p, password, field);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe("assertPasswordAllowed", () => {
  it("accepts a password inside the length window that is not common", async () => {
    expect(await refusal("violet-anvil-42")).toBeNull();
    expect(await refusal("x9!kq2#m")).toBeNull();
    expect(await refusal("x9!kq2#mx9!kq2#m")).toBeNull();
  });

  it("refuses one character too short or too long with password_too_weak", async () => {
    const short = await refusal("x9!kq2#");
    expect(short?.code).toBe("password_too_weak");
    expect(short?.status).toBe(400);
    expect(short?.message).toBe("password must be at least 8 characters.");
    expect(short?.fieldErrors).toEqual([
      { field: "password", code: "password_too_weak", message: "must be at least 8 characters", params: { reason: "too_short", min: 8 } },
    ]);
    expect((await refusal("x9!kq2#mx9!kq2#mz"))?.message).toBe("password must be at most 16 characters.");
  });

  it("counts code points, not UTF-16 units", async () => {
    // 8 emoji are 16 UTF-16 units: inside the window only when counted as characters.
    expect(await refusal("🔑".repeat(8))).toBeNull();
    expect((await refusal("🔑".repeat(7)))?.code).toBe("password_too_weak");
    expect((await refusal("🔑".repeat(17)))?.code).toBe("password_too_weak");
  });

  it("refuses common passwords whatever their case, unless the policy allows them", async () => {
    for (const password of ["password", "PASSWORD", "Password1", "qwertyuiop", "12345678"]) {
      expect((await refusal(password))?.message).toMatch(/most commonly used/);
    }
    expect(await refusal("password", { ...policy, rejectCommon: false })).toBeNull();
  });

  it("names the field it was given", async () => {
    const error = await refusal("short", policy, "newPassword");
    expect(error?.message).toBe("newPassword must be at least 8 characters.");
    expect(error?.fieldErrors?.[0]?.field).toBe("newPassword");
  });
});
