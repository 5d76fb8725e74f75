"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { forgotPassword, resetPassword } from "../../auth/password-reset";
import { forgotPasswordBody, resetPasswordBody } from "../../auth/schemas";
import { nextStepUrl } from "../continue-url";
import { forgetResetEmail, rememberResetEmail } from "../flow-cookies";
import { formText, type FormState } from "../form-state";
import { applySetCookies } from "../response-cookies";
import { runHostedAction } from "../run-action";
import { hostedHref } from "../tenant";

/** "Forgot password": always moves on to the code page, whether or not the address has an account. */
export async function forgotPasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email") };
  return runHostedAction(form, () => ({ fields: ["email"], values }), async (context) => {
    const { email } = forgotPasswordBody.parse(values);
    await forgotPassword(getDb(), context.environment, email, context.request, context.requestId);
    await rememberResetEmail(context.request, context.environment.id, email);
    redirect(hostedHref("/reset-password", context.tenant));
  });
}

/** Code + new password: the lib revokes every session and signs this browser in afresh. */
export async function resetPasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email"), code: formText(form, "code").replace(/\s+/g, "") };
  return runHostedAction(form, () => ({ fields: ["email", "code", "newPassword"], values, codeFields: { invalid_code: "code" } }), async (context) => {
    const input = resetPasswordBody.parse({ ...values, newPassword: formText(form, "newPassword") });
    const established = await resetPassword(getDb(), context.environment, input, context.request, {
      isNative: false,
      requestId: context.requestId,
    });
    await applySetCookies(established.cookies);
    await forgetResetEmail();
    redirect(nextStepUrl(context.environment, established.body.session, context.tenant));
  });
}
