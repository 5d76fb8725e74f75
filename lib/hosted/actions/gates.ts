"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { acceptLegalOperation } from "../../auth/operations";
import { acceptLegalDocuments } from "../../legal/accept-legal-documents";
import { enforceRateLimit } from "../../rate-limit/enforce";
import { sessionState } from "../../sessions/gates";
import { resendVerificationEmail } from "../../users/email-verification";
import { getMeOperation, resendVerificationOperation } from "../../users/me-operations";
import { nextStepUrl } from "../continue-url";
import { fieldErrorState } from "../form-errors";
import { messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runSessionAction } from "../run-action";

/** Consent gate: records acceptance of the current documents, then the next gate or the redirect. */
export async function acceptTermsAction(_state: FormState, form: FormData): Promise<FormState> {
  return runSessionAction(form, acceptLegalOperation, () => ({ fields: ["accept"] }), async (context) => {
    // The tick is the person's explicit agreement; the button alone could be pressed by habit.
    if (form.get("accept") !== "on") return fieldErrorState("accept", context.t.errors.consentMissing);
    const state = await acceptLegalDocuments(getDb(), context.environment, context.session, context.request, context.actor);
    redirect(nextStepUrl(context.environment, state, context.tenant));
  });
}

/** Email-verification gate: emails a link for the primary address (same rate limit as the Client API). */
export async function sendVerificationLinkAction(_state: FormState, form: FormData): Promise<FormState> {
  return runSessionAction(form, resendVerificationOperation, () => ({ fields: [] }), async (context) => {
    await enforceRateLimit(getDb(), context.environment, "emailSends", context.request, context.session.user.id);
    await resendVerificationEmail(getDb(), context.environment, context.session);
    return successState(format(context.t.verifyEmail.sent, { email: context.session.user.email ?? "" }));
  });
}

/** "I have opened the link": moves on once the gate is really cleared. */
export async function continueAfterVerificationAction(_state: FormState, form: FormData): Promise<FormState> {
  return runSessionAction(form, getMeOperation, () => ({ fields: [] }), async (context) => {
    const state = await sessionState(getDb(), context.environment, context.session.user, context.session.session.id);
    if (state.gates.some((gate) => gate.key === "EMAIL_VERIFICATION")) return messageErrorState(context.t.verifyEmail.notYet);
    redirect(nextStepUrl(context.environment, state, context.tenant));
  });
}
