"use server";

import { refresh } from "next/cache";
import { createImpersonationTokenEndpoint } from "../../impersonation/server-endpoints";
import { removeUserIdentityEndpoint } from "../../identities/server-endpoints";
import { environmentUrl, linkBase } from "../../environments/environment-links";
import { format } from "../../hosted/i18n/messages";
import { fieldErrorState } from "../../hosted/form-errors";
import { formText, successState, type FormState } from "../../hosted/form-state";
import { isPlainObject } from "../../json/deep-merge";
import { revokeAllUserSessionsEndpoint, revokeUserSessionEndpoint } from "../../sessions/server-endpoints";
import { METADATA_LIMITS, type MetadataBag } from "../../users/metadata";
import {
  banUserEndpoint,
  createUserEndpoint,
  deleteUserEndpoint,
  getUserEndpoint,
  resetUserMfaEndpoint,
  unbanUserEndpoint,
  updateUserEndpoint,
  updateUserMetadataEndpoint,
} from "../../users/server-endpoints";
import { IMPERSONATION_LANDING_PATH } from "../../hosted/impersonation-landing";
import { findDashboardEnvironment } from "../environments";
import { dashboardCopy } from "../i18n/messages";
import { currentOperator, signInRedirect } from "../operator-session";
import { runOperatorAction } from "../run-operator-action";
import { typedConfirmationError } from "../typed-confirmation";
import { parseEditorJson, replacementPatch } from "../users/metadata-patch";
import { userHref } from "../users/user-search";

/*
 * The users screens' forms. Each runs one Server API operation through
 * runOperatorAction (the operation's schemas, rules, errors and the operator's
 * permission), for the environment and user the form names in hidden fields: a
 * form posted without the page is checked exactly like the page's.
 */

function target(form: FormData): { environmentId: string; userId: string } {
  return { environmentId: formText(form, "env"), userId: formText(form, "userId") };
}

/** A change's answer: the page re-renders with the new data beside the form's message. */
function changed(message: string): FormState {
  refresh();
  return successState(message);
}

/** An operation that answers with a body (runOperatorOperation types every answer as maybe empty). */
function answered<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("The operation answered without a body");
  return value;
}

/** Optional text: "" (not typed) is omitted, so the operation applies its own default. */
function optional(form: FormData, name: string): string | undefined {
  const value = formText(form, name).trim();
  return value === "" ? undefined : value;
}

// POST /api/server/v1/users — the users list's "Create user" form
export async function createUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const environmentId = formText(form, "env");
  const values = { email: formText(form, "email"), firstName: formText(form, "firstName"), lastName: formText(form, "lastName") };
  return runOperatorAction(
    createUserEndpoint,
    { body: { email: optional(form, "email"), firstName: optional(form, "firstName"), lastName: optional(form, "lastName"), password: formText(form, "password") || undefined } },
    {
      environmentId,
      fields: ["email", "firstName", "lastName", "password"],
      values,
      then: (user) => {
        refresh();
        return successState(t.users.create.created, { continueUrl: userHref(environmentId, answered(user).id) });
      },
    },
  );
}

// PATCH /api/server/v1/users/{userId} — names and language
export async function updateUserProfileAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  const locale = formText(form, "locale");
  const values = { firstName: formText(form, "firstName"), lastName: formText(form, "lastName"), locale };
  return runOperatorAction(
    updateUserEndpoint,
    {
      params: { userId },
      // An emptied name or "no language" clears it (null), as the Server API's PATCH does.
      body: { firstName: optional(form, "firstName") ?? null, lastName: optional(form, "lastName") ?? null, locale: locale === "" ? null : locale },
    },
    { environmentId, fields: ["firstName", "lastName", "locale"], values, then: () => changed(t.users.profile.saved) },
  );
}

// PATCH /api/server/v1/users/{userId}/metadata — one bag, replaced by the editor's text
export async function updateUserMetadataAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  const bag = formText(form, "bag") as MetadataBag;
  if (!Object.hasOwn(METADATA_LIMITS, bag)) return fieldErrorState("bag", t.users.metadata.unknownBag);
  const text = formText(form, bag);
  const values = { [bag]: text };
  // The editor's own checks, before anything is sent: the text must be a JSON object.
  const parsed = parseEditorJson(text);
  if (!parsed.ok) return fieldErrorState(bag, t.users.metadata.invalidJson, values);
  if (!isPlainObject(parsed.value)) return fieldErrorState(bag, t.users.metadata.notObject, values);
  const original = parseEditorJson(formText(form, "original"));
  const stored = original.ok && isPlainObject(original.value) ? original.value : {};
  const limit = METADATA_LIMITS[bag];
  const size = Buffer.byteLength(JSON.stringify(parsed.value), "utf8");
  return runOperatorAction(
    updateUserMetadataEndpoint,
    { params: { userId }, body: { [bag]: replacementPatch(stored, parsed.value) } },
    {
      environmentId,
      fields: [bag],
      values,
      // The operation decides; this only words its refusal of the bag (metadata_too_large, a refused key).
      fieldMessages: { [bag]: size > limit ? format(t.users.metadata.tooLarge, { size: String(size), limit: String(limit) }) : t.users.metadata.refused },
      then: () => changed(t.users.metadata.saved),
    },
  );
}

// DELETE /api/server/v1/users/{userId}/sessions/{sessionId} — revoke one session
export async function revokeSessionAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  return runOperatorAction(
    revokeUserSessionEndpoint,
    { params: { userId, sessionId: formText(form, "sessionId") } },
    { environmentId, fields: [], then: () => changed(t.users.sessions.revoked) },
  );
}

// DELETE /api/server/v1/users/{userId}/sessions — revoke all
export async function revokeAllSessionsAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  return runOperatorAction(
    revokeAllUserSessionsEndpoint,
    { params: { userId } },
    { environmentId, fields: [], then: (result) => changed(format(t.users.sessions.revokedAll, { count: String(answered(result).revokedCount) })) },
  );
}

// DELETE /api/server/v1/users/{userId}/identities/{identityId} — disconnect a provider account
export async function removeIdentityAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  return runOperatorAction(
    removeUserIdentityEndpoint,
    { params: { userId, identityId: formText(form, "identityId") } },
    { environmentId, fields: [], then: () => changed(t.users.identities.removed) },
  );
}

// DELETE /api/server/v1/users/{userId}/mfa — reset second factors
export async function resetMfaAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  if (form.get("confirmReset") !== "on") return fieldErrorState("confirmReset", t.users.mfa.confirmRequired);
  return runOperatorAction(resetUserMfaEndpoint, { params: { userId } }, { environmentId, fields: [], then: () => changed(t.users.mfa.resetDone) });
}

// POST /api/server/v1/users/{userId}/ban — ban (and revoke every session)
export async function banUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  return runOperatorAction(banUserEndpoint, { params: { userId } }, { environmentId, fields: [], then: () => changed(t.users.ban.banned) });
}

// POST /api/server/v1/users/{userId}/unban — lift the ban
export async function unbanUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  return runOperatorAction(unbanUserEndpoint, { params: { userId } }, { environmentId, fields: [], then: () => changed(t.users.ban.unbanned) });
}

// DELETE /api/server/v1/users/{userId} — after the operator typed the user's primary address (or id)
export async function deleteUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  // What to type is read from the user itself, never from the form: a form replayed for another user deletes nothing.
  return runOperatorAction(
    getUserEndpoint,
    { params: { userId } },
    {
      environmentId,
      fields: [],
      then: (user) =>
        typedConfirmationError(form, answered(user).email ?? answered(user).id, t.users.delete.mismatch) ??
        runOperatorAction(deleteUserEndpoint, { params: { userId } }, { environmentId, fields: [], then: () => changed(t.users.delete.deleted) }),
    },
  );
}

/**
 * POST /api/server/v1/impersonation-tokens — mint a token acting as the signed-in
 * operator, then hand the form a second form to post it with: to the hosted
 * landing of the user's environment (its frontend host, else PUBLIC_URL with pk),
 * opened in a new tab. The token travels in a POST body only, never in a URL.
 */
export async function impersonateUserAction(_state: FormState, form: FormData): Promise<FormState> {
  const { t } = await dashboardCopy();
  const { environmentId, userId } = target(form);
  const operator = (await currentOperator()) ?? (await signInRedirect());
  const reason = optional(form, "reason");
  return runOperatorAction(
    createImpersonationTokenEndpoint,
    { body: { userId, actorId: operator.id, ...(reason ? { reason } : {}) } },
    {
      environmentId,
      fields: ["reason"],
      values: { reason: reason ?? "" },
      messages: { user_banned: t.users.impersonate.banned, resource_not_found: t.users.impersonate.gone },
      then: async (result) => {
        const { token } = answered(result);
        const environment = await findDashboardEnvironment(environmentId);
        if (!environment) return fieldErrorState("reason", t.errors.notFound);
        const base = linkBase(environment, null);
        const action = environmentUrl({ ...base, publishableKey: null }, IMPERSONATION_LANDING_PATH);
        const fields: Record<string, string> = { token };
        if (base.publishableKey) fields.pk = base.publishableKey;
        return successState(t.users.impersonate.ready, { handoff: { action, fields } });
      },
    },
  );
}


