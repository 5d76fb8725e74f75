"use server";

import { refresh } from "next/cache";
import { unlinkMyIdentityEndpoint } from "../../identities/endpoints";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { runHostedAction, runOperationAction } from "../run-action";

const INTENT = /^remove:(.+)$/;

/**
 * The account page's connected accounts: one form around the list, each row's
 * button posting `intent=remove:<id>`. Runs the Client API operation through the
 * same pipeline as /_svc (recent sign-in, last-sign-in-method rule, notice).
 */
export async function identityListAction(_state: FormState, form: FormData): Promise<FormState> {
  const identityId = INTENT.exec(formText(form, "intent"))?.[1];
  if (!identityId) return runHostedAction(form, () => ({ fields: [] }), async ({ t }) => messageErrorState(t.errors.generic));
  return runOperationAction(form, unlinkMyIdentityEndpoint, {
    describe: (t) => ({ fields: [], messages: { last_sign_in_method: t.account.identities.lastMethod } }),
    input: () => ({ params: { identityId } }),
    then: async (_result, { t }) => {
      refresh();
      return successState(t.account.identities.removed);
    },
  });
}
