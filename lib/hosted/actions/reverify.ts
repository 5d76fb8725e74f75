"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { reverifyOperation } from "../../auth/operations";
import { enforceRateLimit } from "../../rate-limit/enforce";
import { reverifyBody, reverifySession } from "../../sessions/reverification";
import { formText, type FormState } from "../form-state";
import { runSessionAction } from "../run-action";
import { hostedHref } from "../tenant";

/** The account page's password prompt before a sensitive change (POST /_svc/auth/reverify's twin). */
export async function reverifyAction(_state: FormState, form: FormData): Promise<FormState> {
  return runSessionAction(
    form,
    reverifyOperation,
    (t) => ({ fields: ["password"], messages: { invalid_credentials: t.account.reverify.wrong }, codeFields: { invalid_credentials: "password" } }),
    async (context) => {
      await enforceRateLimit(getDb(), context.environment, "signIn", context.request, context.session.user.id);
      const { password } = reverifyBody.parse({ password: formText(form, "password") });
      await reverifySession(getDb(), context.environment, context.session, password, context.actor);
      redirect(hostedHref("/account", context.tenant, { reverified: "1" }));
    },
  );
}
