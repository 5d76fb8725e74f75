import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "@/db/client";
import { violatedConstraint } from "@/db/errors";
import { emailAddresses, users } from "@/db/schema";
import type { Actor } from "../audit/record-event";
import { hashPassword, importedDigest, type DigestExtras } from "../auth/password-hasher";
import { assertPasswordAllowed } from "../auth/password-policy";
import type { EnvironmentContext } from "../environments/context";
import { AppError, invalidField } from "../errors";
import { assertMetadataFits } from "./metadata";
import type { importUserLine } from "./schemas";

export type NewUserInput = z.output<typeof importUserLine>;

/** A user ready to insert: validated, its password hashed or its imported digest normalized. */
export interface NewUserRow {
  id: string;
  email: string | null;
  email_verified: boolean;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  locale: string | null;
  public_metadata: unknown;
  private_metadata: unknown;
  unsafe_metadata: unknown;
  external_id: string | null;
  created_at: string | null;
}

export function emailTaken(): AppError {
  return new AppError("identifier_exists", "Another user in this environment already uses this email address.");
}

export function externalIdTaken(): AppError {
  return new AppError("identifier_exists", "Another user in this environment already has this externalId.");
}

/**
 * Checks one new user and prepares its row: metadata sizes, then the password. A
 * clear password meets the policy and is hashed with argon2id; a digest is kept as
 * it is (normalized by the hasher registry), never re-hashed, so an import of
 * 100,000 bcrypt users costs no hashing at all.
 */
export async function newUserRow(environment: EnvironmentContext, input: NewUserInput, extras: Pick<DigestExtras, "hasherConfig">): Promise<NewUserRow> {
  assertMetadataFits(input);
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    await assertPasswordAllowed(environment.settings.passwordPolicy, input.password);
    passwordHash = await hashPassword(input.password);
  } else if (input.passwordDigest !== undefined && input.passwordHasher !== undefined) {
    const digest = importedDigest(input.passwordHasher, input.passwordDigest, { passwordSalt: input.passwordSalt, hasherConfig: extras.hasherConfig });
    if (!digest.ok) throw invalidField("passwordDigest", `${digest.detail}`);
    passwordHash = digest.stored;
  }
  return {
    id: randomUUID(),
    email: input.email ?? null,
    email_verified: input.emailVerified ?? true,
    password_hash: passwordHash,
    first_name: input.firstName || null,
    last_name: input.lastName || null,
    locale: input.locale ?? null,
    public_metadata: input.publicMetadata ?? {},
    private_metadata: input.privateMetadata ?? {},
    unsafe_metadata: input.unsafeMetadata ?? {},
    external_id: input.externalId ?? null,
    created_at: input.createdAt ?? null,
  };
}

/**
 * Which of these emails and externalIds another user already holds: an email is held
 * by a verified address, or as the primary email of a user not deleted (an imported
 * unverified one included); a pending address someone added holds nothing.
 */
export async function takenIdentifiers(db: Database, environmentId: string, emails: string[], externalIds: string[]): Promise<{ emails: Set<string>; externalIds: Set<string> }> {
  const [emailRows, externalRows] = await Promise.all([
    emails.length === 0
      ? []
      : db
          .select({ value: emailAddresses.email })
          .from(emailAddresses)
          .where(
            and(
              eq(emailAddresses.environmentId, environmentId),
              inArray(emailAddresses.email, emails),
              or(
                isNotNull(emailAddresses.verifiedAt),
                sql`exists (select 1 from users u where u.id = ${emailAddresses.userId} and u.email = ${emailAddresses.email} and u.status <> 'deleted')`,
              ),
            ),
          ),
    externalIds.length === 0
      ? []
      : db
          .select({ value: users.externalId })
          .from(users)
          .where(and(eq(users.environmentId, environmentId), inArray(users.externalId, externalIds))),
  ]);
  return {
    emails: new Set(emailRows.map((row) => row.value)),
    externalIds: new Set(externalRows.flatMap((row) => (row.value === null ? [] : [row.value]))),
  };
}

/** The identifier a unique violation says is taken (a concurrent create won the race). */
export function takenError(error: unknown): AppError | null {
  const constraint = violatedConstraint(error);
  if (constraint === null) return null;
  return constraint === "users_environment_external_id_idx" ? externalIdTaken() : emailTaken();
}

/**
 * Inserts users, their primary addresses and a `user.created` event each in one
 * statement: the rows travel as one JSON parameter (jsonb_to_recordset), so a batch of
 * 1,000 is one round trip and never near the bind-parameter limit.
 */
export async function insertNewUsers(db: Database, environment: EnvironmentContext, rows: NewUserRow[], actor: Actor): Promise<void> {
  if (rows.length === 0) return;
  const onBehalfOf = actor.type === "system" ? undefined : actor.onBehalfOf;
  await db.execute(sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        id uuid, email text, email_verified boolean, password_hash text, first_name text, last_name text, locale text,
        public_metadata jsonb, private_metadata jsonb, unsafe_metadata jsonb, external_id text, created_at timestamptz)
    ), new_user as (
      insert into users (id, environment_id, email, email_verified_at, password_hash, first_name, last_name, locale,
                         public_metadata, private_metadata, unsafe_metadata, external_id, created_at, updated_at)
      select id, ${environment.id}, email, case when email is not null and email_verified then now() end, password_hash,
             first_name, last_name, locale, public_metadata, private_metadata, unsafe_metadata, external_id,
             coalesce(created_at, now()), now()
      from input
      returning id, environment_id, email, email_verified_at
    ), new_address as (
      insert into email_addresses (environment_id, user_id, email, verified_at)
      select environment_id, id, email, email_verified_at from new_user where email is not null
    )
    insert into events (environment_id, type, actor_type, actor_id, on_behalf_of_type, on_behalf_of_id, subject_id, data, request_id)
    select environment_id, 'user.created', ${actor.type}, ${actor.id}, ${onBehalfOf?.type ?? null}, ${onBehalfOf?.id ?? null}, id, '{}'::jsonb, ${actor.requestId}
    from new_user`);
}
