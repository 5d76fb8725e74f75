"use server";

import { AuthError } from "next-auth";
import { redirect, unstable_rethrow } from "next/navigation";
import { loginBody } from "../../auth/schemas";
import { AppError } from "../../errors";
import { errorState } from "../../hosted/form-errors";
import { formText, type FormState } from "../../hosted/form-state";
import { zodToAppError } from "../../http/zod-errors";
import { logUnexpectedError } from "../../log";
import { OperatorSignInRefused, signIn } from "../auth";
import { dashboardCopy } from "../i18n/messages";

const FIELDS = ["email", "password"] as const;

/**
 * The dashboard's sign-in form: next-auth's Credentials sign-in, whose `authorize`
 * runs the operator sign-in rules (lib/dashboard/auth.ts). Success sets the cookie and
 * goes to /dashboard; a wrong password and an unknown address get the same message.
 */
export async function operatorSignInAction(_state: FormState, form: FormData): Promise<FormState> {
  const { shared } = await dashboardCopy();
  const values = { email: formText(form, "email") };
  const input = loginBody.safeParse({ email: values.email, password: formText(form, "password") });
  if (!input.success) return errorState(zodToAppError(input.error, "body"), shared, { fields: FIELDS, values });
  return signInAndGo(input.data, values, "/dashboard");
}

/** Signs in through next-auth and redirects; a refusal becomes the form's state. Shared with the set-password form. */
export async function signInAndGo(credentials: { email: string; password: string }, values: Record<string, string>, redirectTo: string): Promise<FormState> {
  const { shared } = await dashboardCopy();
  try {
    // No redirect from next-auth: its URL would be absolute, on whatever scheme the headers claim.
    await signIn("credentials", { ...credentials, redirect: false });
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof OperatorSignInRefused) return errorState(error.refusal, shared, { fields: FIELDS, values });
    if (error instanceof AuthError) logUnexpectedError("dashboard-sign-in", error.cause ?? error);
    else if (!(error instanceof AppError)) logUnexpectedError("dashboard-sign-in", error);
    return errorState(error instanceof AppError ? error : new Error("sign-in failed"), shared, { fields: FIELDS, values });
  }
  redirect(redirectTo);
}
