import type { Database } from "@/db/client";
import { SYSTEM_ACTOR } from "../audit/record-event";
import { isProduction } from "../config/runtime";
import { createOperator } from "./create-operator";
import { listOperators } from "./operators";
import { issueOperatorSignInLink, type SignInLink } from "./sign-in-link";

/** The owner a first development start creates; sign in with it, then create real operators. */
export const DEV_OPERATOR_EMAIL = "owner@example.com";

export interface DevelopmentOperator {
  email: string;
  created: boolean;
  /** Set while the operator has not chosen a password yet: a fresh link on every start, so the banner's always works. */
  signInLink: SignInLink | null;
}

/**
 * Outside production, a database without operators gets an owner (CONTRACT §1: the
 * first development start prints the dashboard URL and its login). Until that owner
 * has chosen a password, each start prints a new one-time link (the earlier one
 * dies): the token is stored hashed, so an old banner's link cannot be shown again.
 * Production seeds nothing; its first owner comes from `npm run cli -- operator create`.
 */
export async function seedDevelopmentOperator(db: Database): Promise<DevelopmentOperator | null> {
  if (isProduction()) return null;
  const existing = await listOperators(db);
  if (existing.length === 0) {
    const { operator, signInLink } = await createOperator(db, { email: DEV_OPERATOR_EMAIL, role: "owner" }, SYSTEM_ACTOR);
    return { email: operator.email, created: true, signInLink };
  }
  const seeded = existing.find((operator) => operator.email === DEV_OPERATOR_EMAIL);
  if (!seeded) return null;
  return { email: seeded.email, created: false, signInLink: seeded.passwordSet ? null : await issueOperatorSignInLink(db, seeded, SYSTEM_ACTOR) };
}
