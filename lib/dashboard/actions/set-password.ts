"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { errorState } from "../../hosted/form-errors";
import { formText, type FormState } from "../../hosted/form-state";
import { serviceUnavailableFor } from "../../http/database-faults";
import { setOperatorPassword } from "../../operators/sign-in-link";
import { dashboardRequestContext } from "../dashboard-request";
import { dashboardCopy } from "../i18n/messages";
import { signInAndGo } from "./sign-in";

/**
 * The one-time link's form: spends the link on the chosen password (the internal
 * environment's policy; a refused password leaves the link usable), then signs in
 * with it through next-auth like the sign-in form. Should that sign-in be refused
 * (a rate limit), the password stays set and the sign-in page says so.
 */
export async function setOperatorPasswordAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t, shared } = await dashboardCopy();
  const password = formText(form, "password");
  const context = await dashboardRequestContext("POST");
  let email: string;
  try {
    ({ email } = await setOperatorPassword(getDb(), { token: formText(form, "token"), password }, context));
  } catch (error) {
    return errorState(serviceUnavailableFor(error, context.requestId) ?? error, shared, {
      fields: ["password"],
      messages: { invalid_code: t.setPassword.invalidTitle },
      requestId: context.requestId,
    });
  }
  const refused = await signInAndGo({ email, password }, { email }, "/dashboard");
  if (refused.status === "error") redirect("/dashboard/sign-in?passwordSet=1");
  return refused;
}
