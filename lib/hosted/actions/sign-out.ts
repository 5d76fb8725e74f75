"use server";

import { redirect } from "next/navigation";
import { logoutEndpoint } from "../../auth/endpoints";
import type { FormState } from "../form-state";
import { hostedHref } from "../../flows/hosted-flow";
import { runOperationAction } from "../run-action";

/**
 * "Sign out of this device": POST /_svc/auth/logout's twin — revokes this session,
 * clears its cookies, back to sign-in. Signing out twice is fine.
 */
export async function signOutAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, logoutEndpoint, {
    describe: () => ({ fields: [] }),
    input: () => ({}),
    then: async (_result, context) => redirect(hostedHref("/sign-in", context.flow)),
  });
}
