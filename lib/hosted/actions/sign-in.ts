"use server";

import { loginEndpoint } from "../../auth/endpoints";
import { continueAfterSignIn } from "../continue-url";
import { formText, type FormState } from "../form-state";
import { runOperationAction } from "../run-action";

/** Sign-in form: the Client API's login, then on to the next gate or the redirect. */
export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email") };
  return runOperationAction(form, loginEndpoint, {
    describe: () => ({ fields: ["email", "password"], values }),
    input: () => ({ body: { email: values.email, password: formText(form, "password") } }),
    then: async (result, context) => continueAfterSignIn(result, context),
  });
}
