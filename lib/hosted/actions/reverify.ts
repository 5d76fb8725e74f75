"use server";

import { redirect } from "next/navigation";
import { reverifyEndpoint } from "../../auth/endpoints";
import { formText, type FormState } from "../form-state";
import { hostedHref } from "../../flows/hosted-flow";
import { runOperationAction } from "../run-action";
import { postedCode } from "../totp-form";

/**
 * The account page's "confirm it's you" prompt before a sensitive change (POST
 * /_svc/auth/reverify's twin): the password, and for a user with an authenticator
 * app a current code too, so a password alone never reopens the window for them.
 */
export async function reverifyAction(_state: FormState, form: FormData): Promise<FormState> {
  const withCode = form.has("code");
  const password = formText(form, "password");
  const code = postedCode(form);
  return runOperationAction(form, reverifyEndpoint, {
    describe: (t) => {
      const wrong = withCode ? (form.has("password") ? t.account.reverify.wrongWithCode : t.account.reverify.wrongCode) : t.account.reverify.wrong;
      return {
        fields: ["password", "code"],
        fieldMessages: { code: t.errors.totpFormat },
        messages: { invalid_credentials: wrong, invalid_code: wrong },
        codeFields: withCode ? {} : { invalid_credentials: "password" },
      };
    },
    input: () => ({ body: { ...(form.has("password") ? { password } : {}), ...(withCode ? { code } : {}) } }),
    then: async (_result, context) => redirect(hostedHref("/account", context.flow, { reverified: "1" })),
  });
}
