"use server";

import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import {
  deletePasskeyEndpoint,
  passkeyRegistrationOptionsEndpoint,
  passkeyReverifyEndpoint,
  passkeyReverifyOptionsEndpoint,
  passkeySecondFactorEndpoint,
  passkeySecondFactorOptionsEndpoint,
  passkeySignInEndpoint,
  passkeySignInOptionsEndpoint,
  registerPasskeyEndpoint,
  renamePasskeyEndpoint,
} from "../../passkeys/endpoints";
import { continueAfterSignIn } from "../continue-url";
import { pendingMfaFlow } from "../flow-cookies";
import { fieldErrorState } from "../form-errors";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { hostedHref } from "../../flows/hosted-flow";
import type { Messages } from "../i18n/messages";
import type { PasskeyOptionsState } from "../passkey-ceremony-state";
import { runHostedAction, runOperationAction, type ActionContext } from "../run-action";

/*
 * The hosted pages' passkey ceremonies. Each is a pair: an options action the
 * browser calls before `navigator.credentials.*`, and a verify action it posts
 * the result to (`response`, JSON). Both run the Client API operations through
 * the same pipeline as /_svc, so the page can do nothing the API would refuse.
 */

/**
 * The options as the browser library types them. The operation's response schema
 * checked their shape; its strings are the WebAuthn enums the browser expects.
 */
function creationOptions(options: object): PublicKeyCredentialCreationOptionsJSON {
  return options as PublicKeyCredentialCreationOptionsJSON;
}

function requestOptions(options: object): PublicKeyCredentialRequestOptionsJSON {
  return options as PublicKeyCredentialRequestOptionsJSON;
}

/** The ceremony's result as posted by the browser; unparseable JSON is passed on as a string, which the operation's schema refuses. */
function ceremonyResponse(form: FormData): unknown {
  try {
    return JSON.parse(formText(form, "response"));
  } catch {
    return formText(form, "response");
  }
}

const failed = (message: (t: Messages) => string) => (t: Messages) => ({
  fields: [],
  messages: { invalid_request: message(t), invalid_credentials: message(t), invalid_code: message(t) },
});

// Sign-in with a passkey and no email: the button and the email field's autofill.

export async function passkeySignInOptionsAction(form: FormData): Promise<PasskeyOptionsState> {
  return runOperationAction(form, passkeySignInOptionsEndpoint, {
    describe: failed((t) => t.passkey.failed),
    input: () => ({}),
    then: async ({ options }) => ({ ...successState(null), authentication: requestOptions(options) }),
  });
}

export async function passkeySignInAction(form: FormData): Promise<FormState> {
  return runOperationAction(form, passkeySignInEndpoint, {
    describe: failed((t) => t.passkey.failed),
    input: () => ({ body: { response: ceremonyResponse(form) } }),
    then: (result, context) => continueAfterSignIn(result, context),
  });
}

// A passkey as the second factor of a sign-in (the mfaToken is in the flow cookie).

/** The sign-in's mfaToken, read from the flow cookie by `before`; without one the sign-in is over. */
function secondFactorChallenge() {
  const challenge = {
    mfaToken: "",
    before: async ({ environment, t }: ActionContext) => {
      challenge.mfaToken = (await pendingMfaFlow(environment.id, "second_factor"))?.token ?? "";
      return challenge.mfaToken ? null : messageErrorState(t.secondFactor.expired);
    },
  };
  return challenge;
}

export async function passkeySecondFactorOptionsAction(form: FormData): Promise<PasskeyOptionsState> {
  const challenge = secondFactorChallenge();
  return runOperationAction(form, passkeySecondFactorOptionsEndpoint, {
    describe: failed((t) => t.secondFactor.expired),
    before: challenge.before,
    input: () => ({ body: { mfaToken: challenge.mfaToken } }),
    then: async ({ options }) => ({ ...successState(null), authentication: requestOptions(options) }),
  });
}

export async function passkeySecondFactorAction(form: FormData): Promise<FormState> {
  const challenge = secondFactorChallenge();
  return runOperationAction(form, passkeySecondFactorEndpoint, {
    describe: failed((t) => t.passkey.failed),
    before: challenge.before,
    input: () => ({ body: { mfaToken: challenge.mfaToken, response: ceremonyResponse(form) } }),
    then: (result, context) => continueAfterSignIn(result, context),
  });
}

// "Confirm it's you" with a passkey before a sensitive change.

export async function passkeyReverifyOptionsAction(form: FormData): Promise<PasskeyOptionsState> {
  return runOperationAction(form, passkeyReverifyOptionsEndpoint, {
    describe: failed((t) => t.passkey.failed),
    input: () => ({}),
    then: async ({ options }) => ({ ...successState(null), authentication: requestOptions(options) }),
  });
}

export async function passkeyReverifyAction(form: FormData): Promise<FormState> {
  return runOperationAction(form, passkeyReverifyEndpoint, {
    describe: failed((t) => t.passkey.failed),
    input: () => ({ body: { response: ceremonyResponse(form) } }),
    then: async (_result, context) => redirect(hostedHref("/account", context.flow, { reverified: "1" })),
  });
}

// The account page's passkey list: add (a ceremony), rename and remove (plain forms).

export async function passkeyRegistrationOptionsAction(form: FormData): Promise<PasskeyOptionsState> {
  return runOperationAction(form, passkeyRegistrationOptionsEndpoint, {
    describe: failed((t) => t.passkey.failed),
    input: () => ({}),
    then: async (options) => ({ ...successState(null), registration: creationOptions(options) }),
  });
}

export async function registerPasskeyAction(form: FormData): Promise<FormState> {
  const name = formText(form, "name").trim();
  return runOperationAction(form, registerPasskeyEndpoint, {
    describe: (t) => ({
      fields: [],
      fieldMessages: { name: t.account.passkeys.nameInvalid },
      messages: { invalid_request: t.passkey.failed, identifier_exists: t.passkey.alreadyRegistered },
    }),
    input: () => ({ body: { response: ceremonyResponse(form), ...(name ? { name } : {}) } }),
    then: async (_passkey, { t }) => {
      refresh();
      return successState(t.account.passkeys.added);
    },
  });
}

const INTENT = /^(rename|remove):(.+)$/;

/** The operation's limit (a person's name's), checked here too so the message sits next to the row's field. */
const PASSKEY_NAME_MAX = 100;

/**
 * One form around the passkey list, like the email addresses: each row posts
 * `intent=<verb>:<id>`; a rename reads that row's `name:<id>` field.
 */
export async function passkeyListAction(_state: FormState, form: FormData): Promise<FormState> {
  const [, verb, passkeyId = ""] = INTENT.exec(formText(form, "intent")) ?? [];
  const done = async (message: string) => {
    refresh();
    return successState(message);
  };
  switch (verb) {
    case "rename": {
      const field = `name:${passkeyId}`;
      const name = formText(form, field).trim();
      return runOperationAction(form, renamePasskeyEndpoint, {
        describe: (t) => ({ fields: [field], values: { [field]: name }, fieldMessages: { name: t.account.passkeys.nameInvalid } }),
        before: ({ t }) => {
          if (!name) return fieldErrorState(field, t.errors.required, { [field]: name });
          return name.length > PASSKEY_NAME_MAX ? fieldErrorState(field, t.account.passkeys.nameInvalid, { [field]: name }) : null;
        },
        input: () => ({ params: { passkeyId }, body: { name } }),
        then: (_passkey, { t }) => done(t.account.passkeys.renamed),
      });
    }
    case "remove":
      return runOperationAction(form, deletePasskeyEndpoint, {
        describe: (t) => ({ fields: [], messages: { invalid_request: t.account.passkeys.lastFactor } }),
        input: () => ({ params: { passkeyId } }),
        then: (_result, { t }) => done(t.account.passkeys.removed),
      });
    default:
      return runHostedAction(form, () => ({ fields: [] }), async ({ t }) => messageErrorState(t.errors.generic));
  }
}
