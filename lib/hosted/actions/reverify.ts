"use server";

import { redirect } from "next/navigation";
import { reverifyEndpoint } from "../../auth/endpoints";
import { formText, type FormState } from "../form-state";
import { hostedHref } from "../hosted-flow";
import { runOperationAction } from "../run-action";

/** The account page's "confirm it's you" prompt before a sensitive change (POST /_svc/auth/reverify's twin). */
export async function reverifyAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, reverifyEndpoint, {
    describe: (t) => ({ fields: ["password"], messages: { invalid_credentials: t.account.reverify.wrong }, codeFields: { invalid_credentials: "password" } }),
    input: () => ({ body: { password: formText(form, "password") } }),
    then: async (_result, context) => redirect(hostedHref("/account", context.flow, { reverified: "1" })),
  });
}
