"use server";

import { redirect } from "next/navigation";
import { forgotPasswordEndpoint, resetPasswordEndpoint } from "../../auth/endpoints";
import { continueAfterSignIn } from "../continue-url";
import { forgetResetEmail, rememberResetEmail } from "../flow-cookies";
import { formText, type FormState } from "../form-state";
import { hostedHref } from "../../flows/hosted-flow";
import { runOperationAction } from "../run-action";

/** "Forgot password": always moves on to the code page, whether or not the address has an account. */
export async function forgotPasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email") };
  return runOperationAction(form, forgotPasswordEndpoint, {
    describe: () => ({ fields: ["email"], values }),
    input: () => ({ body: values }),
    then: async (_result, context) => {
      await rememberResetEmail(context.request, context.environment.id, values.email);
      redirect(hostedHref("/reset-password", context.flow));
    },
  });
}

/**
 * Code + new password: the operation revokes every session and signs this browser in
 * afresh; a user who owes a second factor goes on to answer it like any sign-in, and
 * only that answer changes the password.
 */
export async function resetPasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email"), code: formText(form, "code").replace(/\s+/g, "") };
  return runOperationAction(form, resetPasswordEndpoint, {
    describe: () => ({ fields: ["email", "code", "newPassword"], values, codeFields: { invalid_code: "code" } }),
    input: () => ({ body: { ...values, newPassword: formText(form, "newPassword") } }),
    then: async (result, context) => {
      await forgetResetEmail();
      return continueAfterSignIn(result, context);
    },
  });
}
