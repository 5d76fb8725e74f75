import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import type { SecondFactor } from "../sessions/establish-session";

/** What a user can prove beyond their first factor, read in one round trip. */
export interface UserFactors {
  /** A confirmed authenticator app: this is what "MFA enabled" means. */
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function readUserFactors(db: Database, userId: string): Promise<UserFactors> {
  const rows = await queryRows<{ totp: boolean; passkeys: number; recovery_codes_left: number }>(
    db,
    sql`
    select exists (select 1 from totp_factors where user_id = ${userId} and confirmed_at is not null) as totp,
           (select count(*)::int from passkeys where user_id = ${userId}) as passkeys,
           (select count(*)::int from recovery_codes where user_id = ${userId} and used_at is null) as recovery_codes_left`,
  );
  const row = rows[0];
  return { totp: Boolean(row?.totp), passkeys: Number(row?.passkeys ?? 0), recoveryCodesLeft: Number(row?.recovery_codes_left ?? 0) };
}

/**
 * The same facts as columns of a query that finds the user (the password sign-in's
 * lookup), so the sign-in learns whether a second factor is due without a round
 * trip of its own. `userId` is the users id column of that query.
 */
export function userFactorColumns(userId: SQL) {
  return {
    totp: sql<boolean>`exists (select 1 from totp_factors f where f.user_id = ${userId} and f.confirmed_at is not null)`.mapWith(Boolean),
    passkeys: sql<number>`(select count(*)::int from passkeys p where p.user_id = ${userId})`.mapWith(Number),
    recoveryCodesLeft: sql<number>`(select count(*)::int from recovery_codes r where r.user_id = ${userId} and r.used_at is null)`.mapWith(Number),
  };
}

/**
 * The same summary as columns of a query over users, so a page of users carries it
 * in the one statement that finds them: correlated subqueries on the factor
 * tables' user indexes, evaluated for the rows returned. `from` is the name the
 * query gives the users rows (the table, or a subquery's alias); the id is
 * qualified with it, since drizzle writes a single table's columns bare, and a
 * bare "id" inside the subqueries would be the factor table's own.
 */
export function factorSummaryColumns(from: string): { mfaEnabled: SQL<boolean>; passkeys: SQL<number> } {
  const userId = sql`${sql.identifier(from)}.${sql.identifier("id")}`;
  return {
    mfaEnabled: sql<boolean>`exists (select 1 from totp_factors f where f.user_id = ${userId} and f.confirmed_at is not null)`.mapWith(Boolean),
    passkeys: sql<number>`(select count(*)::int from passkeys p where p.user_id = ${userId})`.mapWith(Number),
  };
}

/** Whether the user has any second factor at all (an enforced-MFA environment asks for one). */
export function hasAnyFactor(factors: UserFactors): boolean {
  return factors.totp || factors.passkeys > 0;
}

/**
 * Whether a passkey on its own is a second factor the user's sign-ins must answer:
 * where the environment requires MFA, and for the dashboard's operators (the internal
 * environment: an operator protects their account with an authenticator app or a
 * passkey, and a password alone must not pass one that has either). Elsewhere a
 * passkey is a way to sign in, not a step after the password.
 */
function passkeyIsSecondFactor(environment: EnvironmentContext): boolean {
  return environment.settings.mfa.required || environment.internal === true;
}

/**
 * The second factors a sign-in must ask for, in the order to offer them; empty when
 * none is due. MFA is on when the user confirmed an authenticator app; a passkey then
 * also answers the challenge. Where a passkey alone is a second factor
 * (passkeyIsSecondFactor) it is the user's factor. Recovery codes stand in for the
 * app, never for a passkey-only user.
 */
export function dueSecondFactors(environment: EnvironmentContext, factors: UserFactors): SecondFactor[] {
  if (!factors.totp && !(passkeyIsSecondFactor(environment) && factors.passkeys > 0)) return [];
  const due: SecondFactor[] = [];
  if (factors.totp) due.push("totp");
  if (factors.totp && factors.recoveryCodesLeft > 0) due.push("recovery_code");
  if (factors.passkeys > 0) due.push("passkey");
  return due;
}
