"use server";

import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import { changePassword, changePasswordBody } from "../../auth/change-password";
import { enforceRateLimit } from "../../rate-limit/enforce";
import { changePasswordOperation } from "../../users/me-operations";
import { formText, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runSessionAction } from "../run-action";

/** Change (or first set) the password; the lib signs out every other session. */
export async function changePasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  return runSessionAction(
    form,
    changePasswordOperation,
    (t) => ({
      fields: ["currentPassword", "newPassword"],
      messages: { invalid_credentials: t.account.password.wrongCurrent },
      codeFields: { invalid_credentials: "currentPassword" },
    }),
    async (context) => {
      // Same throttle as the Client API: a stolen session must not become a password oracle.
      await enforceRateLimit(getDb(), context.environment, "signIn", context.request, context.session.user.id);
      const current = formText(form, "currentPassword");
      const input = changePasswordBody.parse({ currentPassword: current || undefined, newPassword: formText(form, "newPassword") });
      const result = await changePassword(getDb(), context.environment, context.session, input, context.actor);
      refresh();
      return successState(format(context.t.account.password.changed, { count: result.revokedSessions }));
    },
  );
}
