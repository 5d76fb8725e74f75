import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { retryReadOnce } from "../http/database-faults";
import type { OperatorIdentity } from "../operation/caller";
import { findOperatorAccount, type OperatorAccount } from "../operators/operator-sessions";
import { auth } from "./auth";

export const SIGN_IN_PATH = "/dashboard/sign-in";

/** The operator's own account page: their second factors. */
export const ACCOUNT_PATH = "/dashboard/account";

/**
 * The signed-in operator, or null: next-auth's `auth()` decrypts the cookie, then the
 * operator row, their second factors and their session in the internal environment
 * are read afresh (lib/operators/operator-sessions.ts), so sign-out, a removed
 * operator, a changed role, a factor added or removed, the 12-hour limit and 30
 * minutes idle all take effect on the very next request. Once per render (React's
 * cache), however many loads a page makes.
 */
const resolveOperator = cache(async (): Promise<{ account: OperatorAccount | null; ended: boolean }> => {
  const session = await auth();
  const claims = session?.operator;
  if (!claims) return { account: null, ended: false };
  // A read and an idempotent last-active touch: safe to run again after a dropped connection.
  const account = await retryReadOnce(() => findOperatorAccount(getDb(), { operatorId: claims.id, sessionId: claims.sessionId }));
  return { account, ended: account === null };
});

export async function currentOperator(): Promise<OperatorIdentity | null> {
  return (await resolveOperator()).account?.operator ?? null;
}

/** The signed-in operator with their session in the internal environment, for the operations on their own account. */
export async function currentOperatorAccount(): Promise<OperatorAccount | null> {
  return (await resolveOperator()).account;
}

/**
 * Where a request without a live operator goes: the sign-in page, which says the
 * session has ended when the browser still held one (idle, expired, signed out
 * elsewhere, removed).
 */
export async function signInRedirect(): Promise<never> {
  redirect((await resolveOperator()).ended ? `${SIGN_IN_PATH}?ended=1` : SIGN_IN_PATH);
}

/** The signed-in operator; a signed-out (or ended) session goes to the sign-in page. */
export async function requireOperator(): Promise<OperatorIdentity> {
  return (await currentOperator()) ?? signInRedirect();
}

/** A dashboard path: `/dashboard`, then lower-case segments of letters, digits and dashes. */
const DASHBOARD_PATH = /^\/dashboard(?:\/[a-z0-9-]+)*$/;

/**
 * Where a sign-in goes on to: the dashboard page it was asked for (`next`, e.g. the
 * account page's "sign in again"), only ever a path of the dashboard itself, else
 * the overview. Nothing else is followed: no other site, no other part of Gatehouse.
 */
export function dashboardReturnPath(next: string | null | undefined): string {
  return next && DASHBOARD_PATH.test(next) && next !== SIGN_IN_PATH && !next.startsWith(`${SIGN_IN_PATH}/`) ? next : "/dashboard";
}
