import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db/client";
import { retryReadOnce } from "../http/database-faults";
import type { OperatorIdentity } from "../operation/caller";
import { findOperatorSession } from "../operators/operator-sessions";
import { auth } from "./auth";

export const SIGN_IN_PATH = "/dashboard/sign-in";

/**
 * The signed-in operator, or null: next-auth's `auth()` decrypts the cookie, then the
 * operator row and their session in the internal environment are read afresh
 * (lib/operators/operator-sessions.ts), so sign-out, a removed operator, a changed
 * role, the 12-hour limit and 30 minutes idle all take effect on the very next
 * request. Once per render (React's cache), however many loads a page makes.
 */
const resolveOperator = cache(async (): Promise<{ operator: OperatorIdentity | null; ended: boolean }> => {
  const session = await auth();
  const claims = session?.operator;
  if (!claims) return { operator: null, ended: false };
  // A read and an idempotent last-active touch: safe to run again after a dropped connection.
  const operator = await retryReadOnce(() => findOperatorSession(getDb(), { operatorId: claims.id, sessionId: claims.sessionId }));
  return { operator, ended: operator === null };
});

export async function currentOperator(): Promise<OperatorIdentity | null> {
  return (await resolveOperator()).operator;
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
