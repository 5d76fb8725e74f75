"use server";

import { redirect } from "next/navigation";
import { signUpEndpoint } from "../../auth/endpoints";
import { rememberSignUp } from "../flow-cookies";
import { formText, type FormState } from "../form-state";
import { hostedHref } from "../../flows/hosted-flow";
import { runOperationAction } from "../run-action";

/** The CAPTCHA answer: Turnstile's widget posts `cf-turnstile-response`; the test provider's field is `captchaToken`. */
function captchaAnswer(form: FormData): string | undefined {
  return formText(form, "cf-turnstile-response") || formText(form, "captchaToken") || undefined;
}

/** Sign-up form: starts the sign-up (code emailed) and moves on to the code page. */
export async function signUpAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { name: formText(form, "name"), email: formText(form, "email") };
  const fields = ["name", "email", "password", "legalConsentAccepted", "captchaToken"];
  return runOperationAction(form, signUpEndpoint, {
    describe: (t) => ({
      fields,
      values,
      messages: { forbidden: t.errors.signUpClosed, legal_consent_required: t.errors.consentMissing },
      codeFields: { legal_consent_required: "legalConsentAccepted", identifier_exists: "email" },
    }),
    input: (context) => ({
      body: {
        email: values.email,
        password: formText(form, "password"),
        name: values.name.trim() || undefined,
        legalConsentAccepted: form.get("legalConsentAccepted") === "on",
        captchaToken: captchaAnswer(form),
        // The code email and the new account use the language the person is reading.
        locale: context.locale,
      },
    }),
    then: async (started, context) => {
      await rememberSignUp(context.request, {
        environmentId: context.environment.id,
        token: started.token,
        email: started.email,
        sentAt: Math.floor(Date.now() / 1000),
      });
      redirect(hostedHref("/verify-code", context.flow));
    },
  });
}
