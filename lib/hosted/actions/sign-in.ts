"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { loginBody } from "../../auth/schemas";
import { signIn } from "../../auth/sign-in";
import { nextStepUrl } from "../continue-url";
import { formText, type FormState } from "../form-state";
import { applySetCookies } from "../response-cookies";
import { runHostedAction } from "../run-action";

/** Sign-in form: the Client API's login, then on to the next gate or the redirect. */
export async function signInAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email") };
  return runHostedAction(form, () => ({ fields: ["email", "password"], values }), async (context) => {
    const input = loginBody.parse({ email: values.email, password: formText(form, "password") });
    const established = await signIn(getDb(), context.environment, input, context.request, { isNative: false });
    await applySetCookies(established.cookies);
    redirect(nextStepUrl(context.environment, established.body.session, context.tenant));
  });
}
