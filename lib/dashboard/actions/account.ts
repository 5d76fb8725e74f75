"use server";

import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { refresh } from "next/cache";
import { unstable_rethrow } from "next/navigation";
import { getDb } from "@/db/client";
import { AppError } from "../../errors";
import { errorState, fieldErrorState, type ErrorOptions } from "../../hosted/form-errors";
import { formText, successState, type FormState } from "../../hosted/form-state";
import type { PasskeyOptionsState } from "../../hosted/passkey-ceremony-state";
import { postedCode, postedEnrollment } from "../../hosted/totp-form";
import { serviceUnavailableFor } from "../../http/database-faults";
import { confirmTotpEnrollmentEndpoint, disableMfaEndpoint, regenerateRecoveryCodesEndpoint, startTotpEnrollmentEndpoint } from "../../mfa/endpoints";
import { endSessionsBeforeFirstFactor } from "../../operators/first-factor";
import type { OperatorAccount } from "../../operators/operator-sessions";
import { deletePasskeyEndpoint, passkeyRegistrationOptionsEndpoint, registerPasskeyEndpoint } from "../../passkeys/endpoints";
import type { RequestContext } from "../../operation/request-context";
import { dashboardRequestContext } from "../dashboard-request";
import { dashboardCopy, type DashboardCopy } from "../i18n/messages";
import { requireOperatorAccount, runOnOperatorAccount } from "../operator-account";
import { signInRedirect } from "../operator-session";

/*
 * The account page's forms (/dashboard/account): the operator's own second factors,
 * changed through the end-users' own Client API operations on their account in the
 * internal environment (lib/dashboard/operator-account.ts), so the rules (a recent
 * sign-in, one code per step, the notices to their address) are the same.
 */

interface Frame {
  account: OperatorAccount;
  context: RequestContext;
  copy: DashboardCopy;
}

/** Runs one form's work for the signed-in operator; a refusal becomes the form's state in the dashboard's words. */
async function accountAction<S extends FormState>(describe: (copy: DashboardCopy) => Omit<ErrorOptions, "requestId">, run: (frame: Frame) => Promise<S>): Promise<S | FormState> {
  const account = await requireOperatorAccount();
  const copy = await dashboardCopy();
  const context = await dashboardRequestContext("POST");
  try {
    return await run({ account, context, copy });
  } catch (error) {
    unstable_rethrow(error);
    if (error instanceof AppError && error.code === "unauthorized") await signInRedirect();
    const described = describe(copy);
    return errorState(serviceUnavailableFor(error, context.requestId) ?? error, copy.shared, {
      ...described,
      // A factor change needs a recent sign-in; the operator's way to one is to sign in again.
      messages: { reverification_required: copy.t.account.signInAgainFirst, ...described.messages },
      requestId: context.requestId,
    });
  }
}

const codeErrors = (wrong: (copy: DashboardCopy) => string) => (copy: DashboardCopy) => ({
  fields: ["code"],
  fieldMessages: { code: copy.shared.errors.totpFormat },
  messages: { invalid_code: wrong(copy) },
  codeFields: { invalid_code: "code" } as const,
});

/**
 * The authenticator form, one step per answer (`intent`), as on an end-user's account
 * page: start (a new secret to scan), confirm (the first code turns it on and makes
 * the recovery codes, shown once), regenerate (new codes, the old ones die), cancel, done.
 */
export async function operatorTwoStepAction(_state: FormState, form: FormData): Promise<FormState> {
  switch (formText(form, "intent")) {
    case "start":
      return accountAction(
        () => ({ fields: [] }),
        async ({ account, context }) => ({ ...successState(null), totpEnrollment: await runOnOperatorAccount(startTotpEnrollmentEndpoint, account, {}, context) }),
      );
    case "confirm":
      return confirmAuthenticator(form);
    case "regenerate":
      return accountAction(
        () => ({ fields: [] }),
        async ({ account, context }) => {
          const { recoveryCodes } = await runOnOperatorAccount(regenerateRecoveryCodesEndpoint, account, {}, context);
          refresh();
          return { ...successState(null), recoveryCodes };
        },
      );
    default:
      // cancel, done: back to the section as the page shows it.
      return successState(null);
  }
}

async function confirmAuthenticator(form: FormData): Promise<FormState> {
  const code = postedCode(form);
  const totpEnrollment = postedEnrollment(form);
  const state = await accountAction(codeErrors((copy) => copy.shared.totpSetup.wrongCode), async ({ account, context, copy }) => {
    if (!code) return fieldErrorState("code", copy.shared.errors.required);
    const { recoveryCodes } = await runOnOperatorAccount(confirmTotpEnrollmentEndpoint, account, { body: { code } }, context);
    if (!account.operator.hasSecondFactor) await endSessionsBeforeFirstFactor(getDb(), account, context);
    refresh();
    return { ...successState(copy.t.account.totpOn), recoveryCodes };
  });
  // A wrong code keeps the same QR code and key on screen: the operator may have scanned it already.
  return state.status === "error" ? { ...state, totpEnrollment } : state;
}

/** Turns the authenticator app off: a current code (app or recovery) besides a recent sign-in, as for end-users. */
export async function operatorTurnOffTwoStepAction(_state: FormState, form: FormData): Promise<FormState> {
  const code = postedCode(form);
  return accountAction(codeErrors((copy) => copy.shared.account.reverify.wrongCode), async ({ account, context, copy }) => {
    if (!code) return fieldErrorState("code", copy.shared.errors.required);
    await runOnOperatorAccount(disableMfaEndpoint, account, { body: { code } }, context);
    refresh();
    return successState(copy.t.account.totpOff);
  });
}

/** The ceremony's options for a new passkey: the dashboard's RP ID (PUBLIC_URL's host), none of the operator's passkeys again. */
export async function operatorPasskeyRegistrationOptionsAction(_form: FormData): Promise<PasskeyOptionsState> {
  return accountAction(
    (copy) => ({ fields: [], messages: { invalid_request: copy.shared.passkey.failed } }),
    async ({ account, context }) => {
      const options = await runOnOperatorAccount(passkeyRegistrationOptionsEndpoint, account, {}, context);
      // The operation's schema checked their shape; its strings are the WebAuthn enums the browser expects.
      return { ...successState(null), registration: options as PublicKeyCredentialCreationOptionsJSON };
    },
  );
}

/** Stores the new passkey (the ceremony's `response`, JSON, and an optional name). */
export async function operatorRegisterPasskeyAction(form: FormData): Promise<FormState> {
  const name = formText(form, "name").trim();
  let response: unknown;
  try {
    response = JSON.parse(formText(form, "response"));
  } catch {
    // Passed on as a string, which the operation's schema refuses.
    response = formText(form, "response");
  }
  return accountAction(
    (copy) => ({
      fields: [],
      fieldMessages: { name: copy.shared.account.passkeys.nameInvalid },
      messages: { invalid_request: copy.shared.passkey.failed, identifier_exists: copy.shared.passkey.alreadyRegistered },
    }),
    async ({ account, context, copy }) => {
      await runOnOperatorAccount(registerPasskeyEndpoint, account, { body: { response, ...(name ? { name } : {}) } }, context);
      if (!account.operator.hasSecondFactor) await endSessionsBeforeFirstFactor(getDb(), account, context);
      refresh();
      return successState(copy.t.account.passkeyAdded);
    },
  );
}

/** The passkey list's form: each row posts `intent=remove:<id>`. */
export async function operatorPasskeyListAction(_state: FormState, form: FormData): Promise<FormState> {
  const passkeyId = /^remove:(.+)$/.exec(formText(form, "intent"))?.[1] ?? "";
  return accountAction(
    () => ({ fields: [] }),
    async ({ account, context, copy }) => {
      await runOnOperatorAccount(deletePasskeyEndpoint, account, { params: { passkeyId } }, context);
      refresh();
      return successState(copy.t.account.passkeyRemoved);
    },
  );
}
