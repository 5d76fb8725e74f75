import type { users } from "@/db/schema";
import type { IdentitySummary } from "../identities/schemas";
import type { MyOrganization } from "../organizations/memberships";
import type { ClientUser, ServerUser } from "./schemas";

export type UserRow = typeof users.$inferSelect;

/** What the Server API's user view says about second factors. */
export interface FactorSummary {
  /** An authenticator app is confirmed: sign-in asks for a second factor. */
  mfaEnabled: boolean;
  passkeys: number;
}

/** What the Server API's user view says beyond the row: second factors, connected provider accounts, organizations. */
export interface UserSummary extends FactorSummary {
  identities: IdentitySummary[];
  organizations: MyOrganization[];
}

/** A user who cannot have second factors or connected accounts (yet): just created, or deleted. */
export const NO_FACTORS: UserSummary = { mfaEnabled: false, passkeys: 0, identities: [], organizations: [] };

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

/** The end-user's own view: never private metadata (second factors have their own /users/me/mfa). */
export function toClientUser(row: UserRow): ClientUser {
  return {
    id: row.id,
    environmentId: row.environmentId,
    name: row.name,
    firstName: row.firstName,
    lastName: row.lastName,
    locale: row.locale,
    status: row.status,
    email: row.email,
    emailVerifiedAt: iso(row.emailVerifiedAt),
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: iso(row.deletedAt),
    publicMetadata: row.publicMetadata,
    unsafeMetadata: row.unsafeMetadata,
  };
}

export function toServerUser(row: UserRow, summary: UserSummary): ServerUser {
  return {
    ...toClientUser(row),
    lastSignInAt: iso(row.lastSignInAt),
    privateMetadata: row.privateMetadata,
    externalId: row.externalId,
    mfaEnabled: summary.mfaEnabled,
    passkeys: summary.passkeys,
    identities: summary.identities,
    organizations: summary.organizations,
  };
}
