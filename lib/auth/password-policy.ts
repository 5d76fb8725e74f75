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
  let problem: string | null = null;
  if (length < policy.minLength) problem = `must be at least ${policy.minLength} characters`;
  else if (length > policy.maxLength) problem = `must be at most ${policy.maxLength} characters`;
  else if (policy.rejectCommon && (await commonPasswords()).has(password.toLowerCase())) {
    problem = "is one of the most commonly used passwords; choose another";
  }
  if (problem) {
    throw new AppError("password_too_weak", `${field} ${problem}.`, {
      fieldErrors: [{ field, code: "password_too_weak", message: problem }],
    });
  }
}
