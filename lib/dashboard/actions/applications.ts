"use server";

import { revalidatePath } from "next/cache";
import {
  addEnvironmentEndpoint,
  createApplicationEndpoint,
  deleteApplicationEndpoint,
  deleteEnvironmentEndpoint,
  renameApplicationEndpoint,
  renameEnvironmentEndpoint,
} from "../../applications/endpoints";
import { formText, successState, type FormState } from "../../hosted/form-state";
import { dashboardCopy } from "../i18n/messages";
import { runOperatorAction } from "../run-operator-action";
import { CONFIRMATION_FIELD } from "../typed-confirmation";

/*
 * The Applications page's forms: each runs one dashboard-only operation (lib/applications)
 * for the signed-in operator through the same pipeline as the Server API; the role
 * check, the internal environment's protection and the typed confirmation of a
 * deletion are the operations' own.
 */

const PAGE = "/dashboard/applications";

async function done(message: string, extra: Partial<FormState> = {}): Promise<FormState> {
  revalidatePath(PAGE);
  return successState(message, extra);
}

// POST /dashboard/applications — a new application with its first environment
export async function createApplicationAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const values = { name: formText(form, "name"), environmentName: formText(form, "environmentName"), kind: formText(form, "kind") };
  const body = { name: values.name, kind: values.kind || "development", ...(values.environmentName.trim() ? { environmentName: values.environmentName } : {}) };
  return runOperatorAction(createApplicationEndpoint, { body }, {
    environmentId: null,
    fields: ["name", "environmentName", "kind"],
    values,
    then: (created) => done(t.applications.created, { secret: created?.secretKey }),
  });
}

// POST /dashboard/applications — add an environment to an application
export async function addEnvironmentAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const values = { name: formText(form, "name"), kind: formText(form, "kind") };
  return runOperatorAction(addEnvironmentEndpoint, { params: { applicationId: formText(form, "applicationId") }, body: { name: values.name, kind: values.kind || "development" } }, {
    environmentId: null,
    fields: ["name", "kind"],
    values,
    then: (created) => done(t.applications.added, { secret: created?.secretKey }),
  });
}

// POST /dashboard/applications — rename an application or an environment
export async function renameAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const name = formText(form, "name");
  const options = { environmentId: null, fields: ["name"], values: { name }, then: () => done(t.applications.renamed) };
  const applicationId = formText(form, "applicationId");
  if (applicationId) return runOperatorAction(renameApplicationEndpoint, { params: { applicationId }, body: { name } }, options);
  return runOperatorAction(renameEnvironmentEndpoint, { params: { environmentId: formText(form, "environmentId") }, body: { name } }, options);
}

// POST /dashboard/applications — delete an application or an environment, its name typed to confirm
export async function deleteAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const confirmation = formText(form, CONFIRMATION_FIELD);
  const options = {
    environmentId: null,
    fields: [CONFIRMATION_FIELD],
    values: { [CONFIRMATION_FIELD]: confirmation },
    fieldMessages: { [CONFIRMATION_FIELD]: t.applications.confirmMismatch },
    then: () => done(t.applications.deleted),
  };
  const applicationId = formText(form, "applicationId");
  if (applicationId) return runOperatorAction(deleteApplicationEndpoint, { params: { applicationId }, body: { confirmation } }, options);
  return runOperatorAction(deleteEnvironmentEndpoint, { params: { environmentId: formText(form, "environmentId") }, body: { confirmation } }, options);
}
