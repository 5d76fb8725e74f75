import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import type { UserRow } from "../users/serialize";
import { dueSecondFactors, readUserFactors, type UserFactors } from "./user-factors";

export function mfaStatusOf(environment: EnvironmentContext, factors: UserFactors) {
  return {
    enabled: dueSecondFactors(environment, factors).length > 0,
    totp: factors.totp,
    recoveryCodesLeft: factors.recoveryCodesLeft,
    passkeys: factors.passkeys,
    required: environment.settings.mfa.required,
  };
}

/** The user's second factors as their account page shows them. */
export async function getMfaStatus(db: Database, environment: EnvironmentContext, user: UserRow) {
  return mfaStatusOf(environment, await readUserFactors(db, user.id));
}
