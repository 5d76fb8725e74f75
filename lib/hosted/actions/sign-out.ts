"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { signOut } from "../../auth/sign-out";
import type { FormState } from "../form-state";
import { applySetCookies } from "../response-cookies";
import { runHostedAction } from "../run-action";
import { hostedHref } from "../tenant";

/**
 * "Sign out of this device": revokes this session, clears its cookies, back to
 * sign-in. Like POST /_svc/auth/logout it needs no live session: signing out twice is fine.
 */
export async function signOutAction(_state: FormState, form: FormData): Promise<FormState> {
  return runHostedAction(form, () => ({ fields: [] }), async (context) => {
    await applySetCookies(await signOut(getDb(), context.environment, context.session, context.request));
    redirect(hostedHref("/sign-in", context.tenant));
  });
}
