"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { checkDeletionConfirmation } from "../../organizations/deletion-confirmation";
import {
  createOrganizationEndpoint,
  deleteMyOrganizationEndpoint,
  removeMemberEndpoint,
  updateMemberRoleEndpoint,
  updateMyOrganizationEndpoint,
} from "../../organizations/endpoints";
import {
  acceptOrganizationInvitationEndpoint,
  inviteToOrganizationEndpoint,
  resendOrganizationInvitationEndpoint,
  revokeOrganizationInvitationEndpoint,
  signUpFromTicketEndpoint,
} from "../../organizations/invitations-endpoints";
import { fieldErrorState } from "../form-errors";
import { formText, messageErrorState, successState, type FormState } from "../form-state";
import { hostedHref, type HostedFlow } from "../../flows/hosted-flow";
import { format, type Messages } from "../i18n/messages";
import { readInvitationLanding } from "../invitation-landing";
import { setActiveOrganizationEndpoint } from "../../organizations/active-organization-endpoints";
import { runHostedAction, runOperationAction } from "../run-action";

/** The organization pages' wording for the organization error codes (the generic table has the invitation ones). */
function organizationMessages(t: Messages) {
  const copy = t.organizations.errors;
  return {
    last_owner: copy.last_owner,
    already_member: copy.already_member,
    organization_limit_reached: copy.organization_limit_reached,
    forbidden: copy.forbidden,
  };
}

function organizationHref(organizationId: string, flow: HostedFlow): string {
  return hostedHref(`/organizations/${organizationId}`, flow);
}

/**
 * The landing page's forms: the organization wording, and for invalid_code (a link
 * resent, expired or its organization deleted since the page loaded) the link's, not
 * the generic "code is wrong".
 */
function invitationMessages(t: Messages) {
  return { ...organizationMessages(t), invalid_code: t.organizations.invitation.linkInvalid };
}

/** The landing page's "Accept": joins as the signed-in user, then on to the organization's page. */
export async function acceptInvitationAction(_state: FormState, form: FormData): Promise<FormState> {
  const token = formText(form, "token");
  return runOperationAction(form, acceptOrganizationInvitationEndpoint, {
    describe: (t) => ({ fields: [], messages: invitationMessages(t) }),
    input: () => ({ body: { token } }),
    then: async (membership, context) => redirect(organizationHref(membership.id, context.flow)),
  });
}

/** The landing page's "create your account": the ticket proves the address; signed in as a member, on to the organization. */
export async function signUpFromInvitationAction(_state: FormState, form: FormData): Promise<FormState> {
  const token = formText(form, "token");
  const values = { name: formText(form, "name") };
  return runOperationAction(form, signUpFromTicketEndpoint, {
    describe: (t) => ({
      fields: ["name", "password"],
      values,
      messages: { ...invitationMessages(t), identifier_exists: t.errors.identifier_exists },
    }),
    input: () => ({ body: { ticket: token, password: formText(form, "password"), name: values.name.trim() || undefined } }),
    then: async (_session, context) => {
      const landing = await readInvitationLanding(getDb(), context.environment.id, token);
      redirect(landing ? organizationHref(landing.organizationId, context.flow) : hostedHref("/account", context.flow));
    },
  });
}

/** /organizations/new: creates it with the caller as owner, then its page. */
export async function createOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { name: formText(form, "name") };
  return runOperationAction(form, createOrganizationEndpoint, {
    describe: (t) => ({ fields: ["name"], values, messages: organizationMessages(t) }),
    input: () => ({ body: { name: values.name.trim() } }),
    then: async (organization, context) => redirect(organizationHref(organization.id, context.flow)),
  });
}

/** The account page's switcher: `organizationId=<id>` makes one active, an empty value none. */
export async function setActiveOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const organizationId = formText(form, "organizationId") || null;
  return runOperationAction(form, setActiveOrganizationEndpoint, {
    describe: (t) => ({ fields: [], messages: organizationMessages(t) }),
    input: () => ({ body: { organizationId } }),
    then: async ({ organization }, { t }) => {
      refresh();
      return successState(organization ? t.organizations.switcher.changed : t.organizations.switcher.cleared);
    },
  });
}

/**
 * One form around the member list: `intent=role:<userId>` changes that member's role to
 * the posted `role:<userId>` field, `intent=remove:<userId>` removes them. Leaving is
 * removing oneself (its own form, {@link leaveOrganizationAction}).
 */
export async function membersAction(_state: FormState, form: FormData): Promise<FormState> {
  const organizationId = formText(form, "organizationId");
  const intent = /^(role|remove):(.+)$/.exec(formText(form, "intent"));
  const name = formText(form, `name:${intent?.[2] ?? ""}`);
  if (!intent) return runHostedAction(form, () => ({ fields: [] }), async ({ t }) => messageErrorState(t.errors.generic));
  const [, kind, memberUserId] = intent;
  const params = { organizationId, memberUserId };
  if (kind === "role") {
    return runOperationAction(form, updateMemberRoleEndpoint, {
      describe: (t) => ({ fields: [], messages: organizationMessages(t) }),
      input: () => ({ params, body: { role: formText(form, `role:${memberUserId}`) } }),
      then: async (member, { t }) => {
        refresh();
        return successState(format(t.organizations.page.members.roleChanged, { name, role: member.roleName ?? member.role }));
      },
    });
  }
  return runOperationAction(form, removeMemberEndpoint, {
    describe: (t) => ({ fields: [], messages: organizationMessages(t) }),
    input: () => ({ params }),
    then: async (_result, { t }) => {
      refresh();
      return successState(format(t.organizations.page.members.removed, { name }));
    },
  });
}

/** "Leave organization": removes the caller's own membership, then back to the account page. */
export async function leaveOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const params = { organizationId: formText(form, "organizationId"), memberUserId: formText(form, "userId") };
  return runOperationAction(form, removeMemberEndpoint, {
    describe: (t) => ({ fields: [], messages: organizationMessages(t) }),
    input: () => ({ params }),
    then: async (_result, context) => redirect(hostedHref("/account", context.flow)),
  });
}

/** The invite form: email and role. */
export async function inviteAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { email: formText(form, "email"), role: formText(form, "role") };
  return runOperationAction(form, inviteToOrganizationEndpoint, {
    describe: (t) => ({ fields: ["email", "role"], values, messages: organizationMessages(t) }),
    input: () => ({ params: { organizationId: formText(form, "organizationId") }, body: { email: values.email.trim(), role: values.role } }),
    then: async (invitation, { t }) => {
      refresh();
      return successState(format(t.organizations.page.invitations.invited, { email: invitation.email }));
    },
  });
}

/** One form around the pending invitations: `intent=resend:<id>` or `intent=revoke:<id>`. */
export async function invitationsAction(_state: FormState, form: FormData): Promise<FormState> {
  const intent = /^(resend|revoke):(.+)$/.exec(formText(form, "intent"));
  if (!intent) return runHostedAction(form, () => ({ fields: [] }), async ({ t }) => messageErrorState(t.errors.generic));
  const [, kind, invitationId] = intent;
  const params = { organizationId: formText(form, "organizationId"), invitationId };
  if (kind === "resend") {
    return runOperationAction(form, resendOrganizationInvitationEndpoint, {
      describe: (t) => ({ fields: [], messages: organizationMessages(t) }),
      input: () => ({ params }),
      then: async (invitation, { t }) => {
        refresh();
        return successState(format(t.organizations.page.invitations.resent, { email: invitation.email }));
      },
    });
  }
  return runOperationAction(form, revokeOrganizationInvitationEndpoint, {
    describe: (t) => ({ fields: [], messages: organizationMessages(t) }),
    input: () => ({ params }),
    then: async (invitation, { t }) => {
      refresh();
      return successState(format(t.organizations.page.invitations.revoked, { email: invitation.email }));
    },
  });
}

/** The settings form: name, slug and logo URL, all three sent; an empty logo URL removes the logo. */
export async function organizationSettingsAction(_state: FormState, form: FormData): Promise<FormState> {
  const values = { name: formText(form, "name"), slug: formText(form, "slug"), logoUrl: formText(form, "logoUrl") };
  return runOperationAction(form, updateMyOrganizationEndpoint, {
    describe: (t) => {
      const copy = t.organizations.page.settings;
      return {
        fields: ["name", "slug", "logoUrl"],
        values,
        messages: { ...organizationMessages(t), identifier_exists: copy.slugTaken },
        fieldMessages: { slug: copy.slugInvalid, logoUrl: copy.logoUrlInvalid },
        codeFields: { identifier_exists: "slug" },
      };
    },
    input: () => ({
      params: { organizationId: formText(form, "organizationId") },
      body: { name: values.name.trim(), slug: values.slug.trim(), logoUrl: values.logoUrl.trim() || null },
    }),
    then: async (_organization, { t }) => {
      refresh();
      return successState(t.organizations.page.settings.saved);
    },
  });
}

/**
 * "Delete organization": the typed slug is checked on the server (so it holds without
 * JavaScript), then the delete operation runs; on to the account page with a notice.
 */
export async function deleteOrganizationAction(_state: FormState, form: FormData): Promise<FormState> {
  const organizationId = formText(form, "organizationId");
  const values = { confirmation: formText(form, "confirmation") };
  return runOperationAction(form, deleteMyOrganizationEndpoint, {
    describe: (t) => ({ fields: ["confirmation"], values, messages: organizationMessages(t) }),
    before: async ({ environment, session, t }) => {
      if (!session) return null;
      const confirmation = await checkDeletionConfirmation(getDb(), environment.id, organizationId, session.user.id, values.confirmation);
      return confirmation === "mismatch" ? fieldErrorState("confirmation", t.organizations.page.settings.confirmMismatch, values) : null;
    },
    input: () => ({ params: { organizationId } }),
    then: async (_result, context) => redirect(hostedHref("/account", context.flow, { organizationDeleted: "1" })),
  });
}
