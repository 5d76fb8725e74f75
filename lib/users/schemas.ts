import { z } from "zod";
import { PASSWORD_HASHERS } from "../auth/password-hasher";
import { identitySummarySchema } from "../identities/schemas";
import { emailSchema } from "./email";
import { metadataBagSchema } from "./metadata";
import { passwordDigestDescription } from "./password-digest-formats";

export const USER_STATUSES = ["active", "banned", "deleted"] as const;
export const LOCALES = ["en", "da"] as const;

const timestamp = z.iso.datetime();
const metadataOut = z.record(z.string(), z.unknown());

/** Names are display text: trimmed, at most 100 characters, no control characters. */
export const personNameSchema = z
  .string()
  .trim()
  .max(100, "must be at most 100 characters")
  .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

export const passwordInputSchema = z.string().min(1, "must not be empty").max(1024, "must be at most 1024 characters");

export const userIdParams = z.object({ userId: z.uuid("must be a UUID") });

export const serverUserSchema = z
  .object({
    id: z.uuid(),
    environmentId: z.uuid(),
    name: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    locale: z.enum(LOCALES).nullable(),
    status: z.enum(USER_STATUSES),
    email: z.string().nullable().meta({ description: "Primary email address." }),
    emailVerifiedAt: timestamp.nullable(),
    hasPassword: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: timestamp.nullable(),
    lastSignInAt: timestamp.nullable().meta({ description: "When a session was last opened for the user (null: never)." }),
    publicMetadata: metadataOut,
    privateMetadata: metadataOut,
    unsafeMetadata: metadataOut,
    mfaEnabled: z.boolean().meta({ description: "An authenticator app is set up: signing in asks for a second factor." }),
    passkeys: z.int().min(0).meta({ description: "How many passkeys the user has registered." }),
    identities: z.array(identitySummarySchema).meta({ description: "Connected provider accounts (Google, GitHub, OIDC…), oldest first." }),
    externalId: z.string().nullable().meta({ description: "The user's id in the system they were imported from (unique in the environment)." }),
    organizations: z
      .array(z.object({ id: z.uuid(), name: z.string(), role: z.string(), roleName: z.string().nullable() }))
      .meta({ description: "The user's organizations (id, name, role key, role name), oldest membership first." }),
  })
  .meta({ id: "User", description: "A user as the Server API sees it, private metadata and second factors included." });

export const clientUserSchema = serverUserSchema
  .omit({ privateMetadata: true, lastSignInAt: true, externalId: true, mfaEnabled: true, passkeys: true, identities: true, organizations: true })
  .meta({ id: "ClientUser", description: "A user as the Client API sees it: no private metadata." });

export type ServerUser = z.output<typeof serverUserSchema>;
export type ClientUser = z.output<typeof clientUserSchema>;

export const externalIdSchema = z
  .string()
  .min(1, "must not be empty")
  .max(256, "must be at most 256 characters")
  .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

/** The fields of a created user, shared by `POST /users` and each line of `POST /users/import`. */
export const newUserFields = {
  email: emailSchema.optional().meta({ description: "Primary email; verified unless `emailVerified` is false. Omit for a user without a sign-in identity." }),
  emailVerified: z.boolean().optional().meta({ description: "Whether the email counts as verified; default true (the back end vouches for it)." }),
  password: passwordInputSchema.optional().meta({ description: "Checked against the environment's password policy; omit for a passwordless user." }),
  passwordDigest: z.string().min(1, "must not be empty").max(1024, "must be at most 1024 characters").optional().meta({ description: passwordDigestDescription }),
  passwordHasher: z.enum(PASSWORD_HASHERS).optional().meta({ description: "The scheme of `passwordDigest` (required with it)." }),
  passwordSalt: z.string().max(256, "must be at most 256 characters").optional().meta({ description: "`scrypt_firebase` only: the user's base64 salt from the Firebase export." }),
  externalId: externalIdSchema.optional().meta({ description: "The user's id in the system they come from; unique in the environment (409 identifier_exists)." }),
  createdAt: timestamp
    .refine((value) => new Date(value).getUTCFullYear() >= 1970 && new Date(value).getTime() <= Date.now() + 60_000, "must be between 1970 and now")
    .optional()
    .meta({ description: "When the user was created in the system they come from; default now." }),
  firstName: personNameSchema.optional(),
  lastName: personNameSchema.optional(),
  locale: z.enum(LOCALES).optional(),
  publicMetadata: metadataBagSchema.optional().meta({ description: "At most 512 bytes of UTF-8 JSON." }),
  privateMetadata: metadataBagSchema.optional().meta({ description: "At most 4096 bytes of UTF-8 JSON." }),
  unsafeMetadata: metadataBagSchema.optional().meta({ description: "At most 512 bytes of UTF-8 JSON." }),
};

export const scryptFirebaseConfigSchema = z.strictObject({
  signerKey: z.string().min(1).max(1024).meta({ description: "base64, from the Firebase console's password hash parameters" }),
  saltSeparator: z.string().max(256).meta({ description: "base64" }),
  rounds: z.int().min(1).max(8),
  memCost: z.int().min(1).max(14),
});

export const hasherConfigSchema = z
  .strictObject({ scrypt_firebase: scryptFirebaseConfigSchema.optional() })
  .meta({ id: "HasherConfig", description: "Parameters a hasher needs beside each digest: a Firebase project's scrypt parameters." });

/** A password given either in clear or as a digest of a known hasher, never both. */
function passwordChoice(input: { password?: string; passwordDigest?: string; passwordHasher?: string }, context: z.RefinementCtx) {
  if (input.password !== undefined && input.passwordDigest !== undefined) {
    context.addIssue({ code: "custom", path: ["passwordDigest"], message: "must not be sent with password" });
  }
  if ((input.passwordDigest === undefined) !== (input.passwordHasher === undefined)) {
    context.addIssue({ code: "custom", path: [input.passwordDigest === undefined ? "passwordDigest" : "passwordHasher"], message: "passwordDigest and passwordHasher go together" });
  }
}

export const createUserBody = z
  .strictObject({
    ...newUserFields,
    hasherConfig: hasherConfigSchema.optional().meta({ description: "`scrypt_firebase` only: the project's parameters." }),
  })
  .superRefine(passwordChoice)
  .meta({ id: "CreateUserRequest" });

/** One line of `POST /users/import`: the create fields; hasher parameters come on the file's first line. */
export const importUserLine = z.strictObject(newUserFields).superRefine(passwordChoice).meta({ id: "ImportUserLine" });

export const importConfigLine = z.strictObject({ hasherConfig: hasherConfigSchema }).meta({ id: "ImportConfigLine" });

export const updateUserBody = z
  .strictObject({
    firstName: personNameSchema.nullable().optional(),
    lastName: personNameSchema.nullable().optional(),
    locale: z.enum(LOCALES).nullable().optional(),
    email: emailSchema.optional().meta({ description: "Replaces the primary email (created verified); one of the user's own secondary addresses is promoted." }),
    password: passwordInputSchema.optional().meta({ description: "Sets a new password, subject to the password policy, and revokes every session of the user." }),
  })
  .meta({ id: "UpdateUserRequest" });

export const updateMetadataBody = z
  .strictObject({
    publicMetadata: metadataBagSchema.optional(),
    privateMetadata: metadataBagSchema.optional(),
    unsafeMetadata: metadataBagSchema.optional(),
  })
  .meta({
    id: "UpdateMetadataRequest",
    description: "Each bag present is deep-merged into the stored one; a key set to null is removed at any depth; an omitted bag is unchanged.",
  });

const searchTerm = z.string().min(1, "must not be empty").max(256, "must be at most 256 characters");

/**
 * A search bound. ISO 8601 year 0000 is 1 BC, which Postgres cannot read in this
 * form: the query failed with a 500, so the bound is refused here instead.
 */
const searchInstant = timestamp.refine((value) => new Date(value).getUTCFullYear() >= 1, "must be in year 0001 or later");

export const searchUsersBody = z
  .strictObject({
    name: searchTerm.nullable().optional().meta({ description: "Case-insensitive substring of the name; null requires users without a name." }),
    email: searchTerm.nullable().optional().meta({ description: "Case-insensitive substring of the primary email; null requires users without one." }),
    statuses: z
      .array(z.enum(USER_STATUSES))
      .min(1, "must list at least one status")
      .refine((items) => new Set(items).size === items.length, "must not repeat a status")
      .optional()
      .meta({ description: "Users having any of these statuses. null is rejected." }),
    createdAfter: searchInstant.nullable().optional().meta({ description: "Created at or after this instant. null matches nothing (createdAt is never null)." }),
    createdBefore: searchInstant.nullable().optional().meta({ description: "Created at or before this instant. null matches nothing." }),
    externalId: externalIdSchema.nullable().optional().meta({ description: "Exactly this externalId; null requires users without one." }),
  })
  .meta({ id: "UserSearchFilter", description: "Every filter is tri-state: omitted skips it, a value requires it, null requires the column to be null." });

export const pageQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,3}$/, "must be an integer from 1 to 100")
    .transform(Number)
    .pipe(z.int().min(1, "must be at least 1").max(100, "must be at most 100"))
    .optional()
    .default(20)
    .meta({ description: "Page size, 1 to 100; default 20." }),
  cursor: z.uuid("must be the nextCursor of a previous page").optional().meta({ description: "The previous page's nextCursor." }),
});

export function pageSchema<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      nextCursor: z.uuid().nullable(),
      hasMore: z.boolean(),
    })
    .meta({ id });
}

export const userPageSchema = pageSchema(serverUserSchema, "UserPage");

export const userCountSchema = z.object({ count: z.int().min(0) }).meta({ id: "UserCount" });
