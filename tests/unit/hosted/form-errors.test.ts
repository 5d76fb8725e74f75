import { describe, expect, it } from "vitest";
import { assertPasswordAllowed } from "@/lib/auth/password-policy";
import { AppError } from "@/lib/errors";
import { errorState } from "@/lib/hosted/form-errors";
import { messagesFor } from "@/lib/hosted/i18n/messages";

const policy = { minLength: 10, maxLength: 64, rejectCommon: true };

async function rejection(password: string): Promise<AppError> {
  try {
    await assertPasswordAllowed(policy, password);
  } catch (error) {
    if (error instanceof AppError) return error;
  }
  throw new Error("the policy accepted the password");
}

describe("hosted form errors come from structured parameters, not English text (issue 7 item 11)", () => {
  it("the policy states its reason and bound as params", async () => {
    expect((await rejection("short")).fieldErrors?.[0]?.params).toEqual({ reason: "too_short", min: 10 });
    expect((await rejection("x".repeat(65))).fieldErrors?.[0]?.params).toEqual({ reason: "too_long", max: 64 });
    expect((await rejection("qwertyuiop")).fieldErrors?.[0]?.params).toEqual({ reason: "common" });
  });

  it("regression: the form read the bound out of the English message; a reworded message now keeps the Danish text right", () => {
    const da = messagesFor("da");
    const error = new AppError("password_too_weak", "password: too short.", {
      fieldErrors: [{ field: "password", code: "password_too_weak", message: "needs more characters", params: { reason: "too_short", min: 12 } }],
    });
    const state = errorState(error, da, { fields: ["password"] });
    expect(state.fieldErrors.password).toBe(da.errors.passwordTooShort.replace("{min}", "12"));
  });
});
