"use server";

import { AuthError } from "next-auth";
import { redirect, unstable_rethrow } from "next/navigation";
import { loginBody } from "../../auth/schemas";
import { AppError } from "../../errors";
import { errorState } from "../../hosted/form-errors";
import { formText, type FormState } from "../../hosted/form-state";
import { zodToAppError } from "../../http/zod-errors";
import { logUnexpectedError } from "../../log";
import { OperatorSecondFactorRequired, OperatorSignInRefused, signIn } from "../auth";
import { rememberSecondStep, SECOND_STEP_PATH } from "../auth-second-step";
import { dashboardCopy } from "../i18n/messages";
import { dashboardReturnPath } from "../operator-session";

const FIELDS = ["email", "password"] as const;

/**
 * The dashboard's sign-in form: next-auth's Credentials sign-in, whose `authorize`
 * runs the operator sign-in rules (lib/dashboard/auth.ts). Success sets the cookie and
 * goes to the page asked for (`next`, a dashboard path) or /dashboard; an operator
 * with a second factor goes to the second step instead; a wrong password and an
 * unknown address get the same message.
 */
export async function operatorSignInAction(_state: FormState, form: FormData): Promise<FormState> {
  const { shared } = await dashboardCopy();
  const values = { email: formText(form, "email") };
  const input = loginBody.safeParse({ email: values.email, password: formText(form, "password") });
  if (!input.success) return errorState(zodToAppError(input.error, "body"), shared, { fields: FIELDS, values });
  return signInAndGo(input.data, values, dashboardReturnPath(formText(form, "next")));
}

/**
 * Signs in through next-auth and redirects; a refusal becomes the form's state.
 * Shared with the set-password form. A right password that owes a second factor
 * opens no session: its challenge goes into the pending-step cookie, and the browser
 * to the second step, which goes on to `redirectTo` once the factor is proven.
 */
export async function signInAndGo(credentials: { email: string; password: string }, values: Record<string, string>, redirectTo: string): Promise<FormState> {
  const { shared } = await dashboardCopy();
  try {
    // No redirect from next-auth: its URL would be absolute, on whatever scheme the headers claim.
    await signIn("credentials", { ...credentials, redirect: false });
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof OperatorSecondFactorRequired) {
      await rememberSecondStep({ token: error.challenge.mfaToken, factors: error.challenge.factors, next: redirectTo });
      redirect(SECOND_STEP_PATH);
    }
    if (error instanceof OperatorSignInRefused) return errorState(error.refusal, shared, { fields: FIELDS, values });
    if (error instanceof AuthError) logUnexpectedError("dashboard-sign-in", error.cause ?? error);
    else if (!(error instanceof AppError)) logUnexpectedError("dashboard-sign-in", error);
    return errorState(error instanceof AppError ? error : new Error("sign-in failed"), shared, { fields: FIELDS, values });
  }
  redirect(redirectTo);
}
