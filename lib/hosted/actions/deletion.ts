"use server";

import { DELETION_LINK_MINUTES } from "../../users/account-deletion";
import { confirmDeletionEndpoint, requestDeletionEndpoint } from "../../users/me-endpoints";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runOperationAction } from "../run-action";

/** Type-to-confirm on the account page: emails the one-time deletion link (nothing is deleted yet). */
export async function requestDeletionAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { confirmation: formText(form, "confirmation") };
  return runOperationAction(form, requestDeletionEndpoint, {
    describe: (t) => ({ fields: ["confirmation"], values, messages: { invalid_request: t.errors.confirmationMismatch } }),
    input: () => ({ body: values }),
    then: async (sent, context) => successState(format(context.t.account.delete.sent, { email: sent.email, minutes: DELETION_LINK_MINUTES })),
  });
}

/** The emailed link's page: the token is the credential, so this works signed out and from any device. */
export async function confirmDeletionAction(_state: FormState, form: FormData): Promise<FormState> {
  const token = formText(form, "token");
  return runOperationAction(form, confirmDeletionEndpoint, {
    describe: () => ({ fields: [] }),
    before: ({ t }) => (token ? null : messageErrorState(t.deleteConfirm.missingToken)),
    input: () => ({ body: { token } }),
    then: async (_result, context) => successState(context.t.deleteConfirm.done),
  });
}
