"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { endOperatorSession } from "../../operators/operator-sessions";
import { auth, signOut } from "../auth";
import { dashboardRequestContext } from "../dashboard-request";
import { ACCOUNT_PATH, SIGN_IN_PATH } from "../operator-session";

/**
 * Ends the dashboard session: the operator's session in the internal environment is
 * revoked first, so the cookie is dead even if a copy of it was kept; then next-auth
 * clears it.
 */
async function endDashboardSession(): Promise<void> {
  const claims = (await auth())?.operator;
  if (claims) await endOperatorSession(getDb(), { operatorId: claims.id, sessionId: claims.sessionId }, await dashboardRequestContext("POST"));
  // No redirect from next-auth: its URL would be absolute, on whatever scheme the headers claim.
  await signOut({ redirect: false });
}

/** Sign-out. */
export async function operatorSignOutAction(): Promise<void> {
  await endDashboardSession();
  redirect(`${SIGN_IN_PATH}?signedOut=1`);
}

/**
 * "Sign in again", from the account page: changing a second factor needs a recent
 * sign-in (the reverification window, as for end-users), and a fresh sign-in, second
 * factor included, is how an operator proves one. It comes back to the account page.
 */
export async function operatorSignInAgainAction(): Promise<void> {
  await endDashboardSession();
  redirect(`${SIGN_IN_PATH}?reauth=1&next=${encodeURIComponent(ACCOUNT_PATH)}`);
}
