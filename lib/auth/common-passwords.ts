/** How many of the ranked common passwords are refused. */
export const COMMON_PASSWORD_COUNT = 10_000;

let common: Promise<Set<string>> | undefined;

/**
 * The 10,000 most common passwords, from the ranked list maintained by zxcvbn-ts
 * (`passwords-common`). Loaded on first use: the package is large.
 */
export function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set((dictionary["passwords-common"] as string[]).slice(0, COMMON_PASSWORD_COUNT)),
  );
  return common;
}
