"use server";

import { continueSignUpEndpoint } from "../../oauth/flow-endpoints";
import { continueAfterSignIn } from "../continue-url";
import { fieldErrorState } from "../form-errors";
import { formText, type FormState } from "../form-state";
import { runOperationAction } from "../run-action";

/**
 * The consent page of a deferred OAuth sign-up: the Client API's signup/continue
 * with the person's explicit agreement, then on like any sign-in (gates, the
 * enrollment the environment may require, the redirect).
 */
export async function continueOAuthSignUpAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, continueSignUpEndpoint, {
    describe: () => ({ fields: ["accept"] }),
    // The tick is the person's explicit agreement; the button alone could be pressed by habit.
    before: ({ t }) => (form.get("accept") === "on" ? null : fieldErrorState("accept", t.errors.consentMissing)),
    input: () => ({ body: { token: formText(form, "token"), legalConsentAccepted: true } }),
    then: async (result, context) => continueAfterSignIn(result, context),
  });
}
