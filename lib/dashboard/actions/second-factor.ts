"use server";

import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { AuthError } from "next-auth";
import { redirect, unstable_rethrow } from "next/navigation";
import { getDb } from "@/db/client";
import { errorState, fieldErrorState } from "../../hosted/form-errors";
import { formText, messageErrorState, successState, type FormState } from "../../hosted/form-state";
import type { PasskeyOptionsState } from "../../hosted/passkey-ceremony-state";
import { postedCode } from "../../hosted/totp-form";
import { serviceUnavailableFor } from "../../http/database-faults";
import { operatorPasskeyOptions } from "../../operators/sign-in-operator";
import { OperatorSignInRefused, signIn } from "../auth";
import { forgetSecondStep, pendingSecondStep, type PendingSecondStep } from "../auth-second-step";
import { dashboardRequestContext } from "../dashboard-request";
import { dashboardCopy, type DashboardCopy } from "../i18n/messages";
import { dashboardReturnPath } from "../operator-session";

/*
 * The second step of an operator's sign-in (/dashboard/sign-in/verify): the factor
 * goes to next-auth's `authorize` with the pending step's mfaToken, read from its
 * HttpOnly cookie, never from the form or the URL. Only a proven factor makes
 * next-auth set the dashboard's cookie.
 */

/** What next-auth wrapped: an error thrown in `authorize` that is not its own comes back as the cause of a CallbackRouteError. */
function unwrapped(error: unknown): unknown {
  if (error instanceof OperatorSignInRefused) return error.refusal;
  if (error instanceof AuthError && error.cause && typeof error.cause === "object" && "err" in error.cause) return error.cause.err;
  return error;
}

/** Finishes the sign-in with what `factor` adds to the mfaToken; a refusal becomes the form's state. */
async function finish(pending: PendingSecondStep, factor: { code: string } | { passkey: string }, copy: DashboardCopy, field: string | null): Promise<FormState> {
  const { shared } = copy;
  const context = await dashboardRequestContext("POST");
  try {
    await signIn("credentials", { mfaToken: pending.token, ...factor, redirect: false });
  } catch (error) {
    unstable_rethrow(error);
    const cause = unwrapped(error);
    const wrong = field ? shared.secondFactor.wrongCode : shared.passkey.failed;
    // An unexpected error is logged by errorState with the request id; the page shows the generic message.
    return errorState(serviceUnavailableFor(cause, context.requestId) ?? cause, shared, {
      fields: field ? [field] : [],
      messages: { invalid_code: wrong, invalid_request: wrong },
      codeFields: field ? { invalid_code: field } : {},
      requestId: context.requestId,
    });
  }
  await forgetSecondStep();
  // Checked again as it is read back: only ever a page of the dashboard.
  redirect(dashboardReturnPath(pending.next));
}

/** The code form: an authenticator code, or (method=recovery) a recovery code. */
export async function operatorSecondFactorAction(_state: FormState, form: FormData): Promise<FormState> {
  const copy = await dashboardCopy();
  const pending = await pendingSecondStep();
  if (!pending) return messageErrorState(copy.shared.secondFactor.expired);
  const code = postedCode(form);
  // An empty submit is a slip, not a guess: it must not use up one of the token's attempts.
  if (!code) return fieldErrorState("code", copy.shared.errors.required);
  return finish(pending, { code }, copy, "code");
}

/** The passkey ceremony's options: the challenged operator's passkeys, for the dashboard's RP ID (PUBLIC_URL's host). */
export async function operatorPasskeyOptionsAction(_form: FormData): Promise<PasskeyOptionsState> {
  const { shared } = await dashboardCopy();
  const pending = await pendingSecondStep();
  if (!pending) return messageErrorState(shared.secondFactor.expired);
  const context = await dashboardRequestContext("POST");
  try {
    const { options } = await operatorPasskeyOptions(getDb(), pending.token, context);
    // The library made them for navigator.credentials.get(); its strings are the WebAuthn enums the browser expects.
    return { ...successState(null), authentication: options as PublicKeyCredentialRequestOptionsJSON };
  } catch (error) {
    return errorState(serviceUnavailableFor(error, context.requestId) ?? error, shared, {
      fields: [],
      messages: { invalid_code: shared.secondFactor.expired, invalid_request: shared.passkey.failed },
      requestId: context.requestId,
    });
  }
}

/** The ceremony's result (`response`, JSON) finishes the sign-in. */
export async function operatorPasskeyVerifyAction(form: FormData): Promise<FormState> {
  const copy = await dashboardCopy();
  const pending = await pendingSecondStep();
  if (!pending) return messageErrorState(copy.shared.secondFactor.expired);
  return finish(pending, { passkey: formText(form, "response") }, copy, null);
}
