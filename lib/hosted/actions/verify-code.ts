"use server";

import { resendSignUpEndpoint, verifySignUpEndpoint } from "../../auth/endpoints";
import { continueAfterSignIn } from "../continue-url";
import { forgetSignUp, pendingSignUp, rememberSignUp, RESEND_COOLDOWN_SECONDS, resendCooldown, type PendingSignUp } from "../flow-cookies";
import { fieldErrorState } from "../form-errors";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runOperationAction } from "../run-action";

/** The emailed 6-digit code: creates the account and signs it in. */
export async function verifyCodeAction(_state: FormState, form: FormData): Promise<FormState> {
  // People paste codes with spaces ("123 456"); the code itself is digits only.
  const code = formText(form, "code").replace(/\s+/g, "");
  let pending: PendingSignUp | null = null;
  return runOperationAction(form, verifySignUpEndpoint, {
    describe: () => ({ fields: ["code"], codeFields: { invalid_code: "code" } }),
    before: async (context) => {
      pending = await pendingSignUp(context.environment.id);
      if (!pending) return fieldErrorState("code", context.t.errors.signUpExpired);
      // An empty submit is a slip, not a guess: it must not use up one of the code's attempts.
      if (!code) return fieldErrorState("code", context.t.errors.required);
      return null;
    },
    input: () => ({ body: { token: pending?.token ?? "", code } }),
    then: async (result, context) => {
      await forgetSignUp();
      return continueAfterSignIn(result, context);
    },
  });
}

/** "Send a new code", at most once per cooldown; the operation caps the number of resends. */
export async function resendCodeAction(_state: FormState, form: FormData): Promise<FormState> {
  let pending: PendingSignUp | null = null;
  return runOperationAction(form, resendSignUpEndpoint, {
    describe: () => ({ fields: [] }),
    before: async ({ t, environment }) => {
      pending = await pendingSignUp(environment.id);
      if (!pending) return messageErrorState(t.errors.signUpExpired);
      const wait = resendCooldown(pending);
      return wait > 0 ? messageErrorState(format(t.verifyCode.tooEarly, { seconds: wait }), { cooldownSeconds: wait }) : null;
    },
    input: () => ({ body: { token: pending?.token ?? "" } }),
    then: async (_result, context) => {
      if (pending) await rememberSignUp(context.request, { ...pending, sentAt: Math.floor(Date.now() / 1000) });
      return successState(format(context.t.verifyCode.resent, { email: pending?.email ?? "" }), { cooldownSeconds: RESEND_COOLDOWN_SECONDS });
    },
  });
}
