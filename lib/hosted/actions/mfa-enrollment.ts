"use server";

import { getDb } from "@/db/client";
import {
  confirmMfaEnrollmentEndpoint,
  confirmTotpEnrollmentEndpoint,
  startMfaEnrollmentEndpoint,
  startTotpEnrollmentEndpoint,
} from "../../mfa/endpoints";
import { sessionState } from "../../sessions/gates";
import { nextStepUrl } from "../../flows/flow-target";
import { currentMfaFlow, rememberMfaFlow } from "../flow-cookies";
import { type MfaFlow } from "../../flows/mfa-flow";
import { fieldErrorState } from "../form-errors";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import type { Messages } from "../i18n/messages";
import { runHostedAction, runOperationAction, type ActionContext } from "../run-action";
import { postedCode, postedEnrollment } from "../totp-form";

const confirmErrors = (t: Messages) => ({
  fields: ["code"],
  fieldMessages: { code: t.errors.totpFormat },
  messages: { invalid_code: t.totpSetup.wrongCode },
  codeFields: { invalid_code: "code" },
});

/** The sign-in's enrollment challenge, when this browser holds one of this environment. */
function signInChallenge(flow: MfaFlow | null, context: ActionContext): string | null {
  return flow?.kind === "enrollment" && flow.environmentId === context.environment.id ? flow.token : null;
}

/**
 * The enforced-enrollment page's form (`intent`: start, confirm, cancel). Two
 * callers reach it: a sign-in that answered needs_mfa_enrollment (its mfaToken in
 * the flow cookie; no session yet), and a PENDING session held by the
 * MFA_ENROLLMENT gate (the session's own enrollment operations, which that gate
 * lets through). Confirming shows the recovery codes once, with the way on.
 */
export async function mfaEnrollmentAction(_state: FormState, form: FormData): Promise<FormState> {
  const intent = formText(form, "intent");
  if (intent !== "start" && intent !== "confirm") return runHostedAction(form, () => ({ fields: [] }), async () => successState(null));
  const flow = await currentMfaFlow();
  const code = postedCode(form);
  const needsCode = ({ t }: ActionContext) => (intent === "confirm" && !code ? fieldErrorState("code", t.errors.required) : null);

  if (flow?.kind === "enrollment") {
    const mfaToken = flow.token;
    const before = (context: ActionContext) => (signInChallenge(flow, context) ? needsCode(context) : messageErrorState(context.t.mfaEnrollment.expired));
    if (intent === "start") {
      return runOperationAction(form, startMfaEnrollmentEndpoint, {
        describe: (t) => ({ fields: [], messages: { invalid_code: t.mfaEnrollment.expired } }),
        before,
        input: () => ({ body: { mfaToken } }),
        then: async (enrollment) => ({ ...successState(null), totpEnrollment: enrollment }),
      });
    }
    return keepEnrollmentOnError(
      form,
      runOperationAction(form, confirmMfaEnrollmentEndpoint, {
        describe: confirmErrors,
        before,
        input: () => ({ body: { mfaToken, code } }),
        then: async (result, context) => {
          // The session exists now; the marker keeps this page on the codes instead of moving on.
          await rememberMfaFlow(context.request, { environmentId: context.environment.id, kind: "enrolled" });
          return enrolled(result.recoveryCodes, "session" in result ? nextStepUrl(context, result.session) : null, context);
        },
      }),
    );
  }

  const signedIn = (context: ActionContext) => (context.session ? needsCode(context) : messageErrorState(context.t.mfaEnrollment.expired));
  if (intent === "start") {
    return runOperationAction(form, startTotpEnrollmentEndpoint, {
      describe: () => ({ fields: [] }),
      before: signedIn,
      input: () => ({}),
      then: async (enrollment) => ({ ...successState(null), totpEnrollment: enrollment }),
    });
  }
  return keepEnrollmentOnError(
    form,
    runOperationAction(form, confirmTotpEnrollmentEndpoint, {
      describe: confirmErrors,
      before: signedIn,
      input: () => ({ body: { code } }),
      then: async ({ recoveryCodes }, context) => {
        await rememberMfaFlow(context.request, { environmentId: context.environment.id, kind: "enrolled" });
        const session = context.session;
        const state = session ? await sessionState(getDb(), context.environment, session.user, session.session.id) : null;
        return enrolled(recoveryCodes, state ? nextStepUrl(context, state) : null, context);
      },
    }),
  );
}

function enrolled(recoveryCodes: string[], continueUrl: string | null, { t }: ActionContext): FormState {
  return { ...successState(t.mfaEnrollment.done), recoveryCodes, ...(continueUrl ? { continueUrl } : {}) };
}

/** A wrong code keeps the same QR code and key on screen: the person may have scanned it already. */
async function keepEnrollmentOnError(form: FormData, answer: Promise<FormState>): Promise<FormState> {
  const state = await answer;
  return state.status === "error" ? { ...state, totpEnrollment: postedEnrollment(form) } : state;
}
