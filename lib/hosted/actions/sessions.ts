"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db/client";
import { revokeMySession, revokeOtherSessions } from "../../sessions/my-sessions";
import { revokeMySessionOperation, revokeOtherSessionsOperation } from "../../users/me-operations";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runSessionAction } from "../run-action";

/** One form around the session list: `intent=revoke:<id>` signs out one device, `intent=revoke-others` all but this one. */
export async function sessionsAction(_state: FormState, form: FormData): Promise<FormState> {
  const intent = formText(form, "intent");
  const operation = intent === "revoke-others" ? revokeOtherSessionsOperation : revokeMySessionOperation;
  return runSessionAction(form, operation, () => ({ fields: [] }), async (context) => {
    const { t, session, actor } = context;
    if (intent === "revoke-others") {
      const { revokedCount } = await revokeOtherSessions(getDb(), session, actor);
      refresh();
      return successState(format(t.account.sessions.signedOutOthers, { count: revokedCount }));
    }
    const sessionId = z.uuid().safeParse(/^revoke:(.+)$/.exec(intent)?.[1]);
    if (!sessionId.success) return messageErrorState(t.errors.generic);
    await revokeMySession(getDb(), session, sessionId.data, actor);
    refresh();
    return successState(t.account.sessions.signedOutDevice);
  });
}
