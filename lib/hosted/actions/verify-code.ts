"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { verifySignUpBody } from "../../auth/schemas";
import { resendSignUpCode, verifySignUp } from "../../auth/sign-up";
import { nextStepUrl } from "../continue-url";
import { forgetSignUp, pendingSignUp, rememberSignUp, RESEND_COOLDOWN_SECONDS, resendCooldown } from "../flow-cookies";
import { fieldErrorState } from "../form-errors";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { applySetCookies } from "../response-cookies";
import { runHostedAction } from "../run-action";

/** The emailed 6-digit code: creates the account and signs it in. */
export async function verifyCodeAction(_state: FormState, form: FormData): Promise<FormState> {
  return runHostedAction(form, () => ({ fields: ["code"], codeFields: { invalid_code: "code" } }), async (context) => {
    const pending = await pendingSignUp(context.environment.id);
    if (!pending) return fieldErrorState("code", context.t.errors.signUpExpired);
    // People paste codes with spaces ("123 456"); the code itself is digits only.
    const code = formText(form, "code").replace(/\s+/g, "");
    // An empty submit is a slip, not a guess: it must not use up one of the code's attempts.
    if (!code) return fieldErrorState("code", context.t.errors.required);
    const input = verifySignUpBody.parse({ token: pending.token, code });
    const established = await verifySignUp(getDb(), context.environment, input, context.request, { isNative: false });
    await applySetCookies(established.cookies);
    await forgetSignUp();
    redirect(nextStepUrl(context.environment, established.body.session, context.tenant));
  });
}

/** "Send a new code", at most once per cooldown; the lib caps the number of resends. */
export async function resendCodeAction(_state: FormState, form: FormData): Promise<FormState> {
  return runHostedAction(form, () => ({ fields: [] }), async (context) => {
    const { t } = context;
    const pending = await pendingSignUp(context.environment.id);
    if (!pending) return messageErrorState(t.errors.signUpExpired);
    const wait = resendCooldown(pending);
    if (wait > 0) return messageErrorState(format(t.verifyCode.tooEarly, { seconds: wait }), { cooldownSeconds: wait });
    await resendSignUpCode(getDb(), context.environment, pending.token, context.request);
    await rememberSignUp(context.request, { ...pending, sentAt: Math.floor(Date.now() / 1000) });
    return successState(format(t.verifyCode.resent, { email: pending.email }), { cooldownSeconds: RESEND_COOLDOWN_SECONDS });
  });
}
