"use server";

import { refresh } from "next/cache";
import { getDb } from "@/db/client";
import { enforceRateLimit } from "../../rate-limit/enforce";
import {
  addEmailAddress,
  addEmailAddressBody,
  emailAddressParams,
  promoteEmailAddress,
  removeEmailAddress,
  resendEmailAddressVerification,
} from "../../users/email-addresses";
import {
  addEmailAddressOperation,
  promoteEmailAddressOperation,
  removeEmailAddressOperation,
  resendEmailAddressOperation,
} from "../../users/me-operations";
import { verifyEmailBody, verifyEmailLink } from "../../users/email-verification";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { format } from "../i18n/messages";
import { runHostedAction, runSessionAction } from "../run-action";

/** Adds an address; the lib tells the primary address and emails the new one a verification link. */
export async function addEmailAddressAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email") };
  return runSessionAction(
    form,
    addEmailAddressOperation,
    (t) => ({
      fields: ["email"],
      values,
      messages: { invalid_request: t.account.emails.tooMany, identifier_exists: t.account.emails.alreadyYours },
      codeFields: { identifier_exists: "email" },
    }),
    async (context) => {
      const { email } = addEmailAddressBody.parse(values);
      await enforceRateLimit(getDb(), context.environment, "emailSends", context.request, context.session.user.id);
      const added = await addEmailAddress(getDb(), context.environment, context.session, email, context.actor);
      refresh();
      return successState(format(context.t.account.emails.added, { email: added.email }));
    },
  );
}

const INTENT = /^(resend|promote|remove):(.+)$/;

/**
 * One form around the address list: each row's buttons post `intent=<verb>:<id>`,
 * so the outcome is announced in one place that stays on the page even when the
 * row itself disappears. Each verb keeps its Client API auth level.
 */
export async function emailAddressAction(_state: FormState, form: FormData): Promise<FormState> {
  const [, verb, rawId = ""] = INTENT.exec(formText(form, "intent")) ?? [];
  const operation =
    verb === "remove" ? removeEmailAddressOperation : verb === "promote" ? promoteEmailAddressOperation : resendEmailAddressOperation;
  return runSessionAction(
    form,
    operation,
    (t) => ({
      fields: [],
      messages: {
        invalid_request: verb === "remove" ? t.account.emails.primaryStays : verb === "promote" ? t.account.emails.verifyFirst : t.account.emails.alreadyVerified,
      },
    }),
    async (context) => {
      const { t, environment, session, actor } = context;
      if (!verb) return messageErrorState(t.errors.generic);
      const { emailAddressId } = emailAddressParams.parse({ emailAddressId: rawId });
      let message: string;
      if (verb === "resend") {
        await enforceRateLimit(getDb(), environment, "emailSends", context.request, session.user.id);
        const address = await resendEmailAddressVerification(getDb(), environment, session, emailAddressId);
        message = format(t.account.emails.resent, { email: address.email });
      } else if (verb === "promote") {
        const address = await promoteEmailAddress(getDb(), environment, session, emailAddressId, actor);
        message = format(t.account.emails.promoted, { email: address.email });
      } else {
        await removeEmailAddress(getDb(), environment, session, emailAddressId, actor);
        message = t.account.emails.removed;
      }
      refresh();
      return successState(message);
    },
  );
}

/**
 * The button of the page the emailed link opens: verifying is this POST, never the
 * GET of the link, which mail scanners fetch too. The token is the credential, so
 * it works signed out and from any device.
 */
export async function confirmEmailAddressAction(_state: FormState, form: FormData): Promise<FormState> {
  return runHostedAction(
    form,
    (t) => ({ fields: [], messages: { invalid_code: t.confirmEmail.invalidLink, identifier_exists: t.confirmEmail.taken } }),
    async (context) => {
      const parsed = verifyEmailBody.safeParse({ token: formText(form, "token") });
      if (!parsed.success) return messageErrorState(context.t.confirmEmail.invalidLink);
      await verifyEmailLink(getDb(), context.environment, parsed.data.token);
      return successState(context.t.confirmEmail.done);
    },
  );
}
