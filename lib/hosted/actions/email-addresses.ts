"use server";

import { refresh } from "next/cache";
import { format } from "../i18n/messages";
import {
  addEmailAddressEndpoint,
  promoteEmailAddressEndpoint,
  removeEmailAddressEndpoint,
  resendEmailAddressEndpoint,
  verifyEmailAddressEndpoint,
} from "../../users/me-endpoints";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { runHostedAction, runOperationAction } from "../run-action";

/** Adds an address; the operation tells the primary address and emails the new one a verification link. */
export async function addEmailAddressAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email") };
  return runOperationAction(form, addEmailAddressEndpoint, {
    describe: (t) => ({
      fields: ["email"],
      values,
      messages: { invalid_request: t.account.emails.tooMany, identifier_exists: t.account.emails.alreadyYours },
      codeFields: { identifier_exists: "email" },
    }),
    input: () => ({ body: values }),
    then: async (added, context) => {
      refresh();
      return successState(format(context.t.account.emails.added, { email: added.email }));
    },
  });
}

const INTENT = /^(resend|promote|remove):(.+)$/;

/**
 * One form around the address list: each row's buttons post `intent=<verb>:<id>`,
 * so the outcome is announced in one place that stays on the page even when the
 * row itself disappears. Each verb runs its own Client API operation.
 */
export async function emailAddressAction(_state: FormState, form: FormData): Promise<FormState> {
  const [, verb, emailAddressId = ""] = INTENT.exec(formText(form, "intent")) ?? [];
  const input = () => ({ params: { emailAddressId } });
  const done = async (message: string) => {
    refresh();
    return successState(message);
  };
  switch (verb) {
    case "resend":
      return runOperationAction(form, resendEmailAddressEndpoint, {
        describe: (t) => ({ fields: [], messages: { invalid_request: t.account.emails.alreadyVerified } }),
        input,
        then: (address, { t }) => done(format(t.account.emails.resent, { email: address.email })),
      });
    case "promote":
      return runOperationAction(form, promoteEmailAddressEndpoint, {
        describe: (t) => ({ fields: [], messages: { invalid_request: t.account.emails.verifyFirst } }),
        input,
        then: (address, { t }) => done(format(t.account.emails.promoted, { email: address.email })),
      });
    case "remove":
      return runOperationAction(form, removeEmailAddressEndpoint, {
        describe: (t) => ({ fields: [], messages: { invalid_request: t.account.emails.primaryStays } }),
        input,
        then: (_result, { t }) => done(t.account.emails.removed),
      });
    default:
      return runHostedAction(form, () => ({ fields: [] }), async ({ t }) => messageErrorState(t.errors.generic));
  }
}

/**
 * The button of the page the emailed link opens: verifying is this POST, never the
 * GET of the link, which mail scanners fetch too. The token is the credential, so
 * it works signed out and from any device.
 */
export async function confirmEmailAddressAction(_state: FormState, form: FormData): Promise<FormState> {
  const token = formText(form, "token");
  return runOperationAction(form, verifyEmailAddressEndpoint, {
    describe: (t) => ({ fields: [], messages: { invalid_code: t.confirmEmail.invalidLink, identifier_exists: t.confirmEmail.taken, invalid_request: t.confirmEmail.invalidLink } }),
    before: ({ t }) => (token ? null : messageErrorState(t.confirmEmail.invalidLink)),
    input: () => ({ body: { token } }),
    then: async (_result, { t }) => successState(t.confirmEmail.done),
  });
}
