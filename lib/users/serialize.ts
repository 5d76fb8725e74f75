import type { users } from "@/db/schema";
import type { ClientUser, ServerUser } from "./schemas";

export type UserRow = typeof users.$inferSelect;

const iso = (value: Date | null): string | null => value?.toISOString() ?? null;

export function toServerUser(row: UserRow): ServerUser {
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
    privateMetadata: row.privateMetadata,
    unsafeMetadata: row.unsafeMetadata,
  };
}

/** The end-user's own view: never private metadata. */
export function toClientUser(row: UserRow): ClientUser {
  const { privateMetadata: _private, ...user } = toServerUser(row);
  return user;
}
