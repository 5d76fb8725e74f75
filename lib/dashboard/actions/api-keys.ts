"use server";

import { revalidatePath } from "next/cache";
import { replaceFrontendHostsEndpoint } from "../../applications/endpoints";
import { createSecretKeyEndpoint, replaceAllowedOriginsEndpoint, revokeSecretKeyEndpoint } from "../../environments/server-endpoints";
import { formText, successState, type FormState } from "../../hosted/form-state";
import { rotateSigningKeyEndpoint } from "../../tokens/server-endpoints";
import { dashboardCopy } from "../i18n/messages";
import { runOperatorAction } from "../run-operator-action";

/*
 * The API keys page's forms (app/(dashboard)/dashboard/api-keys): each runs one
 * operation for the signed-in operator on the environment the form names (`env`), so
 * the role check and every rule are the operation's own. Most are Server API
 * operations run in that environment; replacing the frontend hosts is dashboard-only
 * (lib/applications) and takes the environment as its path parameter.
 */

const PAGE = "/dashboard/api-keys";

/** A textarea's entries: one a line, blank lines dropped. */
function lines(form: FormData, name: string): string[] {
  return formText(form, name)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

async function done(message: string, extra: Partial<FormState> = {}): Promise<FormState> {
  revalidatePath(PAGE);
  return successState(message, extra);
}

// POST /dashboard/api-keys — create a secret key, shown in this one answer
export async function createSecretKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const label = formText(form, "label");
  return runOperatorAction(createSecretKeyEndpoint, { body: label.trim() ? { label } : {} }, {
    environmentId: formText(form, "env"),
    fields: ["label"],
    values: { label },
    then: (key) => done(t.apiKeys.created, { secret: key?.secret }),
  });
}

// POST /dashboard/api-keys — revoke a secret key
export async function revokeSecretKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  return runOperatorAction(revokeSecretKeyEndpoint, { params: { keyId: formText(form, "keyId") } }, {
    environmentId: formText(form, "env"),
    fields: [],
    messages: { last_secret_key: t.apiKeys.lastKey },
    then: () => done(t.apiKeys.revokedToast),
  });
}

// POST /dashboard/api-keys — make a new signing key current
export async function rotateSigningKeyAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  return runOperatorAction(rotateSigningKeyEndpoint, {}, { environmentId: formText(form, "env"), fields: [], then: () => done(t.apiKeys.rotated) });
}

// POST /dashboard/api-keys — replace the frontend hosts (a dashboard-only operation: it names the environment itself)
export async function replaceFrontendHostsAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  return runOperatorAction(replaceFrontendHostsEndpoint, { params: { environmentId: formText(form, "env") }, body: { hosts: lines(form, "hosts") } }, {
    environmentId: null,
    fields: ["hosts"],
    values: { hosts: formText(form, "hosts") },
    messages: { identifier_exists: t.apiKeys.hostTaken, invalid_request: t.apiKeys.invalidLines },
    fieldMessages: { hosts: t.apiKeys.hostTaken },
    then: () => done(t.apiKeys.hostsSaved),
  });
}

// POST /dashboard/api-keys — replace the allowed origins
export async function replaceAllowedOriginsAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  return runOperatorAction(replaceAllowedOriginsEndpoint, { body: { origins: lines(form, "origins") } }, {
    environmentId: formText(form, "env"),
    fields: ["origins"],
    values: { origins: formText(form, "origins") },
    messages: { invalid_request: t.apiKeys.invalidLines },
    then: () => done(t.apiKeys.originsSaved),
  });
}
