"use server";

import { refresh } from "next/cache";
import { revokeMySessionEndpoint, revokeOtherSessionsEndpoint } from "../../users/me-endpoints";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runHostedAction, runOperationAction } from "../run-action";

/** One form around the session list: `intent=revoke:<id>` signs out one device, `intent=revoke-others` all but this one. */
export async function sessionsAction(_state: FormState, form: FormData): Promise<FormState> {
  const intent = formText(form, "intent");
  if (intent === "revoke-others") {
    return runOperationAction(form, revokeOtherSessionsEndpoint, {
      describe: () => ({ fields: [] }),
      input: () => ({}),
      then: async ({ revokedCount }, { t }) => {
        refresh();
        return successState(format(t.account.sessions.signedOutOthers, { count: revokedCount }));
      },
    });
  }
  const sessionId = /^revoke:(.+)$/.exec(intent)?.[1];
  if (!sessionId) return runHostedAction(form, () => ({ fields: [] }), async ({ t }) => messageErrorState(t.errors.generic));
  return runOperationAction(form, revokeMySessionEndpoint, {
    describe: () => ({ fields: [] }),
    input: () => ({ params: { sessionId } }),
    then: async (_result, { t }) => {
      refresh();
      return successState(t.account.sessions.signedOutDevice);
    },
  });
}
