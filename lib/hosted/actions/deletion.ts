"use server";

import { getDb } from "@/db/client";
import { enforceRateLimit } from "../../rate-limit/enforce";
import {
  confirmAccountDeletion,
  DELETION_LINK_MINUTES,
  deletionConfirmBody,
  deletionRequestBody,
  requestAccountDeletion,
} from "../../users/account-deletion";
import { requestDeletionOperation } from "../../users/me-operations";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { applySetCookies } from "../response-cookies";
import { runHostedAction, runSessionAction } from "../run-action";

/** Type-to-confirm on the account page: emails the one-time deletion link (nothing is deleted yet). */
export async function requestDeletionAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { confirmation: formText(form, "confirmation") };
  return runSessionAction(
    form,
    requestDeletionOperation,
    (t) => ({ fields: ["confirmation"], values, messages: { invalid_request: t.errors.confirmationMismatch } }),
    async (context) => {
      const input = deletionRequestBody.parse(values);
      await enforceRateLimit(getDb(), context.environment, "emailSends", context.request, context.session.user.id);
      const sent = await requestAccountDeletion(getDb(), context.environment, context.session, input.confirmation);
      return successState(format(context.t.account.delete.sent, { email: sent.email, minutes: DELETION_LINK_MINUTES }));
    },
  );
}

/** The emailed link's page: the token is the credential, so this works signed out and from any device. */
export async function confirmDeletionAction(_state: FormState, form: FormData): Promise<FormState> {
  return runHostedAction(form, () => ({ fields: [] }), async (context) => {
    const parsed = deletionConfirmBody.safeParse({ token: formText(form, "token") });
    if (!parsed.success) return messageErrorState(context.t.deleteConfirm.missingToken);
    const deleted = await confirmAccountDeletion(getDb(), context.environment, parsed.data.token, context.request);
    await applySetCookies(deleted.cookies);
    return successState(context.t.deleteConfirm.done);
  });
}
