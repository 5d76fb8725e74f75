import type { EnvironmentSettings } from "../environments/settings";
import { AppError } from "../errors";
import { commonPasswords } from "./common-passwords";

type PasswordPolicy = EnvironmentSettings["passwordPolicy"];

/**
 * NIST SP 800-63B rules: a length window and a block-list of common passwords,
 * no composition rules. Length counts Unicode code points, not UTF-16 units.
 */
export async function assertPasswordAllowed(policy: PasswordPolicy, password: string, field = "password"): Promise<void> {
  const length = [...password].length;
  let problem: { message: string; params: Record<string, string | number> } | null = null;
  if (length < policy.minLength) {
    problem = { message: `must be at least ${policy.minLength} characters`, params: { reason: "too_short", min: policy.minLength } };
  } else if (length > policy.maxLength) {
    problem = { message: `must be at most ${policy.maxLength} characters`, params: { reason: "too_long", max: policy.maxLength } };
  } else if (policy.rejectCommon && (await commonPasswords()).has(password.toLowerCase())) {
    problem = { message: "is one of the most commonly used passwords; choose another", params: { reason: "common" } };
  }
  if (problem) {
    throw new AppError("password_too_weak", `${field} ${problem.message}.`, {
      fieldErrors: [{ field, code: "password_too_weak", message: problem.message, params: problem.params }],
    });
  }
}
