"use server";

import { refresh } from "next/cache";
import { confirmTotpEnrollmentEndpoint, disableMfaEndpoint, regenerateRecoveryCodesEndpoint, startTotpEnrollmentEndpoint } from "../../mfa/endpoints";
import { fieldErrorState } from "../form-errors";
import { formText, successState, type FormState } from "../form-state";
import type { Messages } from "../i18n/messages";
import { runHostedAction, runOperationAction } from "../run-action";
import { postedCode, postedEnrollment } from "../totp-form";

const confirmErrors = (t: Messages) => ({
  fields: ["code"],
  fieldMessages: { code: t.errors.totpFormat },
  messages: { invalid_code: t.totpSetup.wrongCode },
  codeFields: { invalid_code: "code" },
});

/**
 * The account page's authenticator form, one step per answer (`intent`): start
 * (a new secret to scan), confirm (the first code turns MFA on and makes the
 * recovery codes), regenerate (new codes, the old ones die), cancel, done. Start,
 * confirm and regenerate are sensitive: a stale sign-in is sent to confirm it's you.
 */
export async function twoStepAction(_state: FormState, form: FormData): Promise<FormState> {
  switch (formText(form, "intent")) {
    case "start":
      return runOperationAction(form, startTotpEnrollmentEndpoint, {
        describe: () => ({ fields: [] }),
        input: () => ({}),
        then: async (enrollment) => ({ ...successState(null), totpEnrollment: enrollment }),
      });
    case "confirm":
      return confirmAuthenticator(form);
    case "regenerate":
      return runOperationAction(form, regenerateRecoveryCodesEndpoint, {
        describe: () => ({ fields: [] }),
        input: () => ({}),
        then: async ({ recoveryCodes }) => {
          refresh();
          return { ...successState(null), recoveryCodes };
        },
      });
    default:
      // cancel, done: back to the section as the page shows it.
      return runHostedAction(form, () => ({ fields: [] }), async () => successState(null));
  }
}

async function confirmAuthenticator(form: FormData): Promise<FormState> {
  const code = postedCode(form);
  const totpEnrollment = postedEnrollment(form);
  const state = await runOperationAction(form, confirmTotpEnrollmentEndpoint, {
    describe: confirmErrors,
    before: ({ t }) => (code ? null : fieldErrorState("code", t.errors.required)),
    input: () => ({ body: { code } }),
    then: async ({ recoveryCodes }, { t }) => {
      // The page behind the codes now says "on"; the codes stay, since this form stays.
      refresh();
      return { ...successState(t.account.twoStep.turnedOn), recoveryCodes };
    },
  });
  // A wrong code keeps the same QR code and key on screen: the person may have scanned it already.
  return state.status === "error" ? { ...state, totpEnrollment } : state;
}

/** "Turn off two-step verification": needs a current code (authenticator or recovery) besides a recent sign-in. */
export async function turnOffTwoStepAction(_state: FormState, form: FormData): Promise<FormState> {
  const code = postedCode(form);
  return runOperationAction(form, disableMfaEndpoint, {
    describe: (t) => ({
      fields: ["code"],
      fieldMessages: { code: t.errors.totpFormat },
      messages: { invalid_code: t.account.reverify.wrongCode },
      codeFields: { invalid_code: "code" },
    }),
    before: ({ t }) => (code ? null : fieldErrorState("code", t.errors.required)),
    input: () => ({ body: { code } }),
    then: async (_result, { t }) => {
      refresh();
      return successState(t.account.twoStep.turnedOff);
    },
  });
}
