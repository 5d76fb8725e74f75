"use server";

import { verifyMfaEndpoint } from "../../mfa/endpoints";
import { continueAfterSignIn } from "../continue-url";
import { pendingMfaFlow } from "../flow-cookies";
import { fieldErrorState } from "../form-errors";
import { formText, type FormState } from "../form-state";
import { runOperationAction } from "../run-action";
import { postedCode } from "../totp-form";

/**
 * The second-factor page's form: an authenticator code, or (method=recovery) a
 * recovery code, for the sign-in whose mfaToken is in the flow cookie. On success
 * the session opens and the flow goes on like any sign-in.
 */
export async function verifySecondFactorAction(_state: FormState, form: FormData): Promise<FormState> {
  const code = postedCode(form);
  const recovery = formText(form, "method") === "recovery";
  let mfaToken = "";
  return runOperationAction(form, verifyMfaEndpoint, {
    describe: (t) => ({
      fields: ["code"],
      fieldMessages: { code: recovery ? t.errors.recoveryFormat : t.errors.totpFormat },
      messages: { invalid_code: t.secondFactor.wrongCode },
      codeFields: { invalid_code: "code" },
    }),
    before: async ({ environment, t }) => {
      mfaToken = (await pendingMfaFlow(environment.id, "second_factor"))?.token ?? "";
      if (!mfaToken) return fieldErrorState("code", t.secondFactor.expired);
      // An empty submit is a slip, not a guess: it must not use up one of the token's attempts.
      return code ? null : fieldErrorState("code", t.errors.required);
    },
    input: () => ({ body: { mfaToken, code } }),
    then: (result, context) => continueAfterSignIn(result, context),
  });
}
