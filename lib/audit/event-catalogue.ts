import { z } from "zod";

/** Why a session stopped being usable; the actor of the event says who ended it. */
export const sessionRevocationReason = z.enum([
  /** The session's own sign-out. */
  "sign_out",
  /** Ended on its own: by its user from another device, or through the Server API. */
  "revoke",
  /** Its user signed out everywhere but the current device. */
  "revoke_others",
  /** Every session of the user, through the Server API. */
  "revoke_all",
  "password_changed",
  "password_reset",
  /** An operator set a new password through the Server API. */
  "password_set_by_operator",
  "user_banned",
  "user_deleted",
  /** An operator reset the user's second factors through the Server API. */
  "mfa_reset",
  /** A satellite session (GET /_svc/auth/sync) whose primary session ended. */
  "primary_session_ended",
  /** Opened by a provider sign-in whose connected account was removed: by its user, an operator, or with its provider. */
  "identity_removed",
  /** A dashboard operator's first second factor: their other sessions, which a password alone opened, end. */
  "first_factor_added",
]);
export type SessionRevocationReason = z.output<typeof sessionRevocationReason>;

const none = z.strictObject({});
const count = z.int().min(0);
const fieldNames = z.strictObject({ fields: z.array(z.string()) });
const revokedSessions = z.strictObject({ revokedSessions: count });
const emailAddress = z.strictObject({ emailAddressId: z.uuid() });
const templateName = z.strictObject({ name: z.string() });
const passkey = z.strictObject({ passkeyId: z.uuid() });
const identity = z.strictObject({ identityId: z.uuid(), providerId: z.string() });
const oauthProvider = z.strictObject({ providerId: z.string() });
const organizationMember = z.strictObject({ userId: z.uuid(), role: z.string() });
const invitation = z.strictObject({ invitationId: z.uuid() });

/**
 * What an event's `subject_id` names: a user (also for session and email events, so
 * a user's history is one index lookup), a JWT template, an organization (its
 * membership events name the member in the payload), or nothing (environment-wide).
 */
type Subject = "user" | "jwt_template" | "organization" | null;

interface EventSpec {
  subject: Subject;
  data: z.ZodType<Record<string, unknown>>;
}

/**
 * Every event Gatehouse records, with the shape of its payload. The writer accepts
 * nothing else, so an unknown type or a wrong payload is a compile error, and this
 * list is the contract webhooks will deliver. Payloads hold ids and counts, never
 * secrets or addresses: the subject's current state is read when needed.
 */
export const eventCatalogue = {
  "user.created": { subject: "user", data: none },
  "user.signed_up": { subject: "user", data: none },
  "user.updated": { subject: "user", data: fieldNames.extend({ revokedSessions: count.optional() }) },
  "user.profile_updated": { subject: "user", data: fieldNames },
  "user.metadata_updated": { subject: "user", data: z.strictObject({ bags: z.array(z.string()) }) },
  "user.banned": { subject: "user", data: revokedSessions },
  "user.unbanned": { subject: "user", data: none },
  "user.deleted": { subject: "user", data: revokedSessions },
  "user.password_changed": { subject: "user", data: revokedSessions },
  "user.password_set": { subject: "user", data: revokedSessions },
  "user.password_reset": { subject: "user", data: revokedSessions },
  /** An authenticator app was confirmed: sign-in now asks for a second factor. */
  "user.mfa_enabled": { subject: "user", data: none },
  "user.mfa_disabled": { subject: "user", data: none },
  "user.recovery_codes_regenerated": { subject: "user", data: none },
  /** An operator removed every second factor (authenticator app, recovery codes, passkeys). */
  "user.mfa_reset": { subject: "user", data: revokedSessions.extend({ passkeys: count }) },
  "user.data_requested": { subject: "user", data: z.strictObject({ dataRequestId: z.uuid() }) },
  "user.data_export_ready": { subject: "user", data: z.strictObject({ dataRequestId: z.uuid() }) },
  "email.added": { subject: "user", data: emailAddress },
  "email.primary_changed": { subject: "user", data: emailAddress },
  "email.removed": { subject: "user", data: emailAddress },
  "email.verified": { subject: "user", data: none },
  "passkey.added": { subject: "user", data: passkey },
  "passkey.renamed": { subject: "user", data: passkey },
  "passkey.removed": { subject: "user", data: passkey },
  /** A provider account (provider id + subject) was connected to the user: it signs in as them. */
  "identity.linked": { subject: "user", data: identity },
  "identity.unlinked": { subject: "user", data: identity },
  "legal.accepted": {
    subject: "user",
    data: z.strictObject({ requireConsent: z.boolean(), termsUrl: z.string().nullable(), privacyUrl: z.string().nullable() }),
  },
  "session.created": { subject: "user", data: z.strictObject({ sessionId: z.uuid(), amr: z.array(z.string()) }) },
  /** The Server API (a secret key, or an operator) minted a one-time token to act as the user; `actorId` names who will. */
  "user.impersonation_token_created": {
    subject: "user",
    data: z.strictObject({ tokenId: z.uuid(), actorId: z.string(), reason: z.string().nullable(), expiresAt: z.iso.datetime() }),
  },
  /** The token was redeemed: an impersonation session opened (its actor is the user, onBehalfOf the impersonator). */
  "user.impersonation_started": { subject: "user", data: z.strictObject({ tokenId: z.uuid(), sessionId: z.uuid(), actorId: z.string() }) },
  /** An impersonation session was revoked (its own sign-out, or any revocation); beside its `session.revoked`. */
  "user.impersonation_ended": { subject: "user", data: z.strictObject({ sessionId: z.uuid(), actorId: z.string(), reason: sessionRevocationReason }) },
  "session.reverified": { subject: "user", data: z.strictObject({ method: z.string() }) },
  /** One per session, whatever ended it (lib/sessions/revoke-sessions.ts). */
  "session.revoked": { subject: "user", data: z.strictObject({ sessionId: z.uuid(), reason: sessionRevocationReason }) },
  /** A dashboard operator (a user of the internal environment) was created with a role. */
  "operator.created": { subject: "user", data: z.strictObject({ role: z.enum(["owner", "admin", "viewer"]) }) },
  /** An operator was removed; their user is deleted (its own `user.deleted` event counts the sessions ended). */
  "operator.removed": { subject: "user", data: none },
  /** A one-time sign-in link was issued to an operator (the CLI, a development start). */
  "operator.sign_in_link_issued": { subject: "user", data: none },
  "environment.created": {
    subject: null,
    data: z.strictObject({ name: z.string(), kind: z.enum(["development", "production"]) }),
  },
  "environment.settings_updated": { subject: null, data: z.strictObject({ keys: z.array(z.string()) }) },
  "environment.allowed_origins_replaced": { subject: null, data: z.strictObject({ origins: z.array(z.string()) }) },
  "signing_key.rotated": { subject: null, data: z.strictObject({ kid: z.string(), retired: z.array(z.string()) }) },
  // Keys, hosts, applications and environments (the dashboard's API keys and Applications pages).
  "api_key.created": { subject: null, data: z.strictObject({ keyId: z.uuid() }) },
  "api_key.revoked": { subject: null, data: z.strictObject({ keyId: z.uuid() }) },
  "environment.frontend_hosts_replaced": { subject: null, data: z.strictObject({ hosts: z.array(z.string()) }) },
  "environment.renamed": { subject: null, data: z.strictObject({ name: z.string(), previousName: z.string() }) },
  /**
   * Application-level events, and an environment's deletion (whose own events go with
   * it), are recorded in the dashboard's internal environment.
   */
  "application.created": { subject: null, data: z.strictObject({ applicationId: z.uuid(), name: z.string() }) },
  "application.renamed": { subject: null, data: z.strictObject({ applicationId: z.uuid(), name: z.string(), previousName: z.string() }) },
  "application.deleted": { subject: null, data: z.strictObject({ applicationId: z.uuid(), name: z.string(), environments: count }) },
  "environment.deleted": { subject: null, data: z.strictObject({ applicationId: z.uuid(), environmentId: z.uuid(), name: z.string() }) },
  "jwt_template.created": { subject: "jwt_template", data: templateName },
  "jwt_template.updated": { subject: "jwt_template", data: fieldNames },
  "jwt_template.deleted": { subject: "jwt_template", data: templateName },
  /** OAuth providers are named by their slug (not a uuid), so it is in the payload, not the subject. */
  "oauth_provider.created": { subject: null, data: oauthProvider.extend({ type: z.string() }) },
  "oauth_provider.updated": { subject: null, data: oauthProvider.extend({ fields: z.array(z.string()) }) },
  "oauth_provider.deleted": { subject: null, data: oauthProvider },
  "organization.created": { subject: "organization", data: z.strictObject({ slug: z.string() }) },
  "organization.updated": { subject: "organization", data: fieldNames },
  "organization.deleted": { subject: "organization", data: z.strictObject({ slug: z.string(), members: count }) },
  "organization.member_added": { subject: "organization", data: organizationMember },
  "organization.role_changed": { subject: "organization", data: organizationMember.extend({ previousRole: z.string() }) },
  "organization.member_removed": { subject: "organization", data: organizationMember },
  /** The last owner's user was deleted and this member (the most org:* permissions, then the longest-standing) became owner. */
  "organization.owner_promoted": { subject: "organization", data: organizationMember.extend({ previousRole: z.string(), formerOwnerId: z.uuid() }) },
  /** The environment's organization role set was replaced (PUT /roles). */
  "organization.roles_replaced": { subject: null, data: z.strictObject({ keys: z.array(z.string()) }) },
  "organization.invitation_created": { subject: "organization", data: invitation.extend({ role: z.string() }) },
  "organization.invitation_resent": { subject: "organization", data: invitation },
  "organization.invitation_revoked": { subject: "organization", data: invitation },
  "organization.invitation_accepted": { subject: "organization", data: invitation.extend({ userId: z.uuid(), role: z.string() }) },
} as const satisfies Record<string, EventSpec>;

export type EventType = keyof typeof eventCatalogue;
export type EventData<T extends EventType> = z.input<(typeof eventCatalogue)[T]["data"]>;
