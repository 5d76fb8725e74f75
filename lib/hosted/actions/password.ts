"use server";

import { refresh } from "next/cache";
import { changePasswordEndpoint } from "../../users/me-endpoints";
import { formText, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runOperationAction } from "../run-action";

/** Change (or first set) the password; the operation signs out every other session. */
export async function changePasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, changePasswordEndpoint, {
    describe: (t) => ({
      fields: ["currentPassword", "newPassword"],
      messages: { invalid_credentials: t.account.password.wrongCurrent },
      codeFields: { invalid_credentials: "currentPassword" },
    }),
    input: () => ({ body: { currentPassword: formText(form, "currentPassword") || undefined, newPassword: formText(form, "newPassword") } }),
    then: async (result, context) => {
      refresh();
      return successState(format(context.t.account.password.changed, { count: result.revokedSessions ?? 0 }));
    },
  });
}
