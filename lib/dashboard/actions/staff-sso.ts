"use server";

import { signIn } from "../auth";
import { STAFF_SSO_PROVIDER } from "../staff-sso";

/** "Sign in with staff SSO": next-auth sends the browser to the staff identity provider (PKCE, state and nonce in cookies). */
export async function staffSsoSignInAction(): Promise<void> {
  await signIn(STAFF_SSO_PROVIDER, { redirectTo: "/dashboard" });
}
