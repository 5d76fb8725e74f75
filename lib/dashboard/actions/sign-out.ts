"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { endOperatorSession } from "../../operators/operator-sessions";
import { auth, signOut } from "../auth";
import { dashboardRequestContext } from "../dashboard-request";
import { SIGN_IN_PATH } from "../operator-session";

/**
 * Sign-out: the operator's session in the internal environment is revoked first, so
 * the cookie is dead even if a copy of it was kept; then next-auth clears it.
 */
export async function operatorSignOutAction(): Promise<void> {
  const claims = (await auth())?.operator;
  if (claims) await endOperatorSession(getDb(), { operatorId: claims.id, sessionId: claims.sessionId }, await dashboardRequestContext("POST"));
  // No redirect from next-auth: its URL would be absolute, on whatever scheme the headers claim.
  await signOut({ redirect: false });
  redirect(`${SIGN_IN_PATH}?signedOut=1`);
}
