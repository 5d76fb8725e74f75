"use server";

import { redirect } from "next/navigation";
import { acceptLegalEndpoint, bootProbeEndpoint } from "../../auth/endpoints";
import { resendVerificationEndpoint } from "../../users/me-endpoints";
import { nextStepUrl } from "../../flows/flow-target";
import { fieldErrorState } from "../form-errors";
import { messageErrorState, successState, type FormState } from "../form-state";
import { hostedHref } from "../../flows/hosted-flow";
import { format } from "../i18n/messages";
import { runOperationAction } from "../run-action";

/** Consent gate: records acceptance of the current documents, then the next gate or the redirect. */
export async function acceptTermsAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, acceptLegalEndpoint, {
    describe: () => ({ fields: ["accept"] }),
    // The tick is the person's explicit agreement; the button alone could be pressed by habit.
    before: ({ t }) => (form.get("accept") === "on" ? null : fieldErrorState("accept", t.errors.consentMissing)),
    input: () => ({}),
    then: async (state, context) => redirect(nextStepUrl(context, state)),
  });
}

/** Email-verification gate: emails a link for the primary address. */
export async function sendVerificationLinkAction(_state: FormState, form: FormData): Promise<FormState> {
  return runOperationAction(form, resendVerificationEndpoint, {
    describe: () => ({ fields: [] }),
    input: () => ({}),
    then: async (_result, context) => successState(format(context.t.verifyEmail.sent, { email: context.session?.user.email ?? "" })),
  });
}

/** "I have opened the link": moves on once the gate is really cleared. */
export async function continueAfterVerificationAction(_state: FormState, form: FormData): Promise<FormState> {
  // The boot probe's question, asked by a page: where does this session stand now?
  return runOperationAction(form, bootProbeEndpoint, {
    describe: () => ({ fields: [] }),
    input: () => ({}),
    then: async (probe, context) => {
      const state = probe.user?.session;
      if (!state) redirect(hostedHref("/sign-in", context.flow));
      if (state.gates.some((gate) => gate.key === "EMAIL_VERIFICATION")) return messageErrorState(context.t.verifyEmail.notYet);
      redirect(nextStepUrl(context, state));
    },
  });
}
