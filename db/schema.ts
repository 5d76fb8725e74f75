import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/**
 * The form of a text the trigram search indexes hold: lower case, and every run of
 * characters other than letters and digits replaced by the letter "q". pg_trgm cuts
 * words at those characters, so the term "m.ma" would otherwise look up a word
 * ending in "m" and one starting with "ma" (a seventh of all addresses in the
 * bench population); as "mqma" its trigrams find the few rows that hold it. The
 * same mapping on row and term keeps every true match a candidate, whichever
 * letter stands in; a rare one keeps the trigrams selective. The exact ILIKE is
 * still checked on each candidate. A query must use this very expression for
 * Postgres to match it to the index.
 */
export function searchKey(value: SQLWrapper): SQL {
  return sql`regexp_replace(lower(${value}), '[^[:alnum:]]+', 'q', 'g')`;
}

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
};

type JsonObject = Record<string, unknown>;

/** The tenant of a row: everything belongs to one environment and goes with it. */
const environmentIdColumn = () =>
  uuid("environment_id")
    .notNull()
    .references(() => environments.id, { onDelete: "cascade" });

/** The user a row belongs to; it goes when the user row does. */
const userIdColumn = () =>
  uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" });

export const applications = pgTable("applications", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  ...timestamps,
});

export const environments = pgTable(
  "environments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    applicationId: uuid("application_id")
      .notNull()
      .references(() => applications.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** `development` environments get `_test_` keys, `production` ones `_live_` keys. */
    kind: text("kind", { enum: ["development", "production"] }).notNull(),
    publishableKey: text("publishable_key").notNull(),
    /** Hosts (`host[:port]`) that serve this environment's Client API and hosted pages. */
    frontendHosts: text("frontend_hosts").array().notNull().default(sql`'{}'::text[]`),
    /** Extra browser and native origins allowed to call the Client API (CORS, redirects). */
    allowedOrigins: text("allowed_origins").array().notNull().default(sql`'{}'::text[]`),
    /** Validated by `lib/environments/settings.ts`; stored whole, defaults applied on write. */
    settings: jsonb("settings").$type<JsonObject>().notNull(),
    /**
     * The dashboard's own environment, whose users are the operators
     * (lib/operators/internal-environment.ts). No publishable key, Host or secret key
     * ever resolves it, and no listing shows it; at most one exists.
     */
    internal: boolean("internal").notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("environments_publishable_key_idx").on(t.publishableKey),
    uniqueIndex("environments_internal_idx").on(t.internal).where(sql`${t.internal}`),
    index("environments_application_idx").on(t.applicationId),
    index("environments_frontend_hosts_idx").using("gin", t.frontendHosts),
  ],
);

/**
 * One row per frontend host, so that the primary key makes a host name at most one
 * environment, even when two writers race (a host shared by two environments would
 * make the Host header ambiguous: the wrong tenant's pages, cookies and keys). Kept
 * equal to `environments.frontend_hosts` by a trigger on that column (migration
 * 0004), so every writer of the column is checked, not only the ones that remember to.
 */
export const environmentFrontendHosts = pgTable(
  "environment_frontend_hosts",
  {
    host: text("host").primaryKey(),
    environmentId: environmentIdColumn(),
  },
  (t) => [index("environment_frontend_hosts_environment_idx").on(t.environmentId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    /** SHA-256 of the whole secret key; the key itself is shown once and never stored. */
    keyHash: text("key_hash").notNull(),
    /** First characters of the key, enough to recognise it in a list. */
    displayPrefix: text("display_prefix").notNull(),
    label: text("label"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a request last presented the key, to the minute (written at most once a minute per key). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("api_keys_key_hash_idx").on(t.keyHash),
    index("api_keys_environment_idx").on(t.environmentId),
  ],
);

export const signingKeys = pgTable(
  "signing_keys",
  {
    /** The JWK `kid`. */
    id: text("id").primaryKey(),
    environmentId: environmentIdColumn(),
    algorithm: text("algorithm", { enum: ["ES256", "EdDSA"] }).notNull(),
    publicJwk: jsonb("public_jwk").$type<JsonObject>().notNull(),
    /** Private JWK sealed with the master key (JWE, dir + A256GCM). */
    privateJwkSealed: text("private_jwk_sealed").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when a newer key takes over signing; the key stays published until its tokens expire. */
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (t) => [index("signing_keys_environment_idx").on(t.environmentId, t.createdAt)],
);

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    /** Primary email, normalised (lower case, ASCII domain). Kept after deletion for the record. */
    email: text("email"),
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    passwordHash: text("password_hash"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    name: text("name").generatedAlwaysAs(
      sql`nullif(btrim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), '')`,
    ),
    locale: text("locale", { enum: ["en", "da"] }),
    status: text("status", { enum: ["active", "banned", "deleted"] }).notNull().default("active"),
    publicMetadata: jsonb("public_metadata").$type<JsonObject>().notNull().default({}),
    privateMetadata: jsonb("private_metadata").$type<JsonObject>().notNull().default({}),
    unsafeMetadata: jsonb("unsafe_metadata").$type<JsonObject>().notNull().default({}),
    ...timestamps,
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    /** Consecutive failed sign-ins; past a threshold each attempt waits longer (never a hard lockout). */
    failedSignInCount: integer("failed_sign_in_count").notNull().default(0),
    lastFailedSignInAt: timestamp("last_failed_sign_in_at", { withTimezone: true }),
    /**
     * Raised each time all the user's sessions are revoked (password change or reset,
     * ban, sign out everywhere…). A sign-in carries the value it read with the user's
     * credentials to the session it opens, through a second-factor challenge or a
     * ticket when it has to; a session opens only while the value is unchanged, so a
     * proof made before a revocation opens nothing after it (lib/sessions/sign-in-generation.ts).
     */
    signInGeneration: integer("sign_in_generation").notNull().default(0),
    /** The user's id in the system they were imported from; unique per environment, searchable. */
    externalId: text("external_id"),
  },
  (t) => [
    uniqueIndex("users_environment_external_id_idx").on(t.environmentId, t.externalId).where(sql`external_id IS NOT NULL`),
    // Keyset pagination walks (environment, createdAt, id) in either direction.
    index("users_environment_created_idx").on(t.environmentId, t.createdAt, t.id),
    index("users_environment_status_created_idx").on(t.environmentId, t.status, t.createdAt, t.id),
    // Case-insensitive substring search (ILIKE '%term%') on email and name finds its
    // candidates here; see searchKey and lib/users/search-users.ts.
    index("users_email_search_idx").using("gin", sql`${searchKey(t.email)} gin_trgm_ops`),
    index("users_name_search_idx").using("gin", sql`${searchKey(t.name)} gin_trgm_ops`),
  ],
);

/**
 * The dashboard's operators: each is a user of the internal environment (its
 * password, throttle and sessions are the users' own code path) with a role.
 */
export const operators = pgTable(
  "operators",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: userIdColumn(),
    role: text("role", { enum: ["owner", "admin", "viewer"] }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("operators_user_idx").on(t.userId)],
);

export const emailAddresses = pgTable(
  "email_addresses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    email: text("email").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /**
     * When an added, still unverified address lapses (its verification link's
     * lifetime, renewed by a resend); null once verified and for addresses created verified.
     */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One owner per address per environment, and only a verified address has one: pending
    // addresses of several users coexist, so adding someone else's address squats nothing;
    // whoever proves the mailbox first holds it. A primary address is always a verified
    // row (every path that makes one verifies it). Deleting a user releases its addresses.
    uniqueIndex("email_addresses_verified_email_idx").on(t.environmentId, t.email).where(sql`verified_at IS NOT NULL`),
    // Sign-in and sign-up look an address up whatever its state.
    index("email_addresses_environment_email_idx").on(t.environmentId, t.email),
    // A user holds an address once; also the index for a user's list.
    uniqueIndex("email_addresses_user_email_idx").on(t.userId, t.email),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    /** SHA-256 of the opaque session token; the token lives only in the cookie. */
    tokenHash: text("token_hash").notNull(),
    status: text("status", { enum: ["active", "revoked"] }).notNull().default("active"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    userAgent: text("user_agent"),
    ipAddress: text("ip_address"),
    /**
     * The latest proof of identity in this session: authenticatedAt, then each
     * reverification. Kept as one column so the sensitive-operation check reads one value.
     */
    lastVerifiedAt: timestamp("last_verified_at", { withTimezone: true }).notNull().defaultNow(),
    /** How the session was proven (RFC 8176 method names: pwd, otp, recovery, webauthn, oauth, ticket, impersonation). */
    amr: text("amr").array().notNull().default(sql`'{}'::text[]`),
    /** Authentication assurance level: 1 for one factor, 2 for two (NIST SP 800-63B). */
    aal: smallint("aal").notNull().default(1),
    /** When the session was opened by a sign-in. */
    authenticatedAt: timestamp("authenticated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The last reverification inside the session, if any. */
    reverifiedAt: timestamp("reverified_at", { withTimezone: true }),
    /**
     * For a satellite session (GET /auth/sync): the primary domain's session it was
     * handed from. Ending the primary ends its satellites too.
     */
    parentSessionId: uuid("parent_session_id"),
    /**
     * The organization this session acts for (POST /organizations/active): its access
     * tokens carry org_id, org_role and org_permissions while the user is a member.
     */
    activeOrganizationId: uuid("active_organization_id"),
    /**
     * For a session opened by impersonation (POST /_svc/auth/session/impersonate):
     * who acts as the user, the kind of credential that minted the token and the
     * `actorId` it named. Its access tokens carry `act: {sub: impersonatorId}`, and
     * every event written through it names the impersonator as `on_behalf_of_*`.
     * Null for the user's own sign-ins.
     */
    impersonatorType: text("impersonator_type", { enum: ["secret_key", "operator"] }),
    impersonatorId: text("impersonator_id"),
  },
  (t) => [
    uniqueIndex("sessions_token_hash_idx").on(t.tokenHash),
    index("sessions_user_created_idx").on(t.userId, t.createdAt, t.id),
    index("sessions_parent_idx").on(t.parentSessionId).where(sql`${t.parentSessionId} is not null`),
  ],
);

/**
 * The audit log and the outbox webhooks deliver from: one row per change, written in
 * the change's own transaction by lib/audit/record-event.ts, whose catalogue fixes
 * each type's payload. A row carries all a delivery needs: type, environment,
 * occurred-at (`created_at`), payload (`data`), actor and request id.
 */
export const events = pgTable(
  "events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Monotonic cursor in the order events were written, for keyset pages of the audit log. */
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    environmentId: environmentIdColumn(),
    /** Dotted name such as `user.created`, `user.banned`, `session.revoked`. */
    type: text("type").notNull(),
    actorType: text("actor_type", { enum: ["secret_key", "user", "system", "operator"] }).notNull(),
    actorId: text("actor_id"),
    /** Who really acted when the actor is impersonated: an operator or a secret key acting as the user. */
    onBehalfOfType: text("on_behalf_of_type", { enum: ["secret_key", "operator"] }),
    onBehalfOfId: text("on_behalf_of_id"),
    subjectId: uuid("subject_id"),
    data: jsonb("data").$type<JsonObject>().notNull().default({}),
    /** The request (`req_…`) or job (`job_…`) that made the change; null only for the CLI and boot. */
    requestId: text("request_id"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index("events_environment_created_idx").on(t.environmentId, t.createdAt),
    index("events_environment_seq_idx").on(t.environmentId, t.seq),
    index("events_subject_idx").on(t.subjectId),
    // The audit log's type and actor filters (lib/audit/list-audit-events.ts): newest
    // first within the type or actor, and an unknown one is an empty range.
    index("events_environment_type_seq_idx").on(t.environmentId, t.type, t.seq),
    index("events_environment_actor_seq_idx").on(t.environmentId, t.actorId, t.seq),
    // The actor filter's other half (the impersonator); almost every event has none.
    index("events_environment_on_behalf_of_seq_idx").on(t.environmentId, t.onBehalfOfId, t.seq).where(sql`${t.onBehalfOfId} is not null`),
  ],
);

/**
 * One-time secrets: sign-up codes, password-reset codes, verification and deletion
 * links sent by email, the mfaToken of a sign-in that still owes its second
 * factor (or its enrollment), session tickets and impersonation tokens. Only
 * hashes are stored; consumption is one conditional UPDATE.
 */
export const oneTimeCodes = pgTable(
  "one_time_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    purpose: text("purpose", {
      enum: [
        "sign_up",
        "password_reset",
        "email_verification",
        "account_deletion",
        "mfa_challenge",
        "session_ticket",
        "signup_continuation",
        "impersonation",
        "operator_sign_in_link",
      ],
    }).notNull(),
    /** SHA-256 of the opaque token the client or link holds. */
    tokenHash: text("token_hash").notNull(),
    /** HMAC-SHA256 of the 6-digit code under the master key; null for link-only purposes. */
    codeHash: text("code_hash"),
    email: text("email").notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Purpose-specific data, e.g. a pending sign-up's password hash and names. */
    payload: jsonb("payload").$type<JsonObject>().notNull().default({}),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    sendCount: integer("send_count").notNull().default(1),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("one_time_codes_token_hash_idx").on(t.tokenHash),
    index("one_time_codes_lookup_idx").on(t.environmentId, t.purpose, t.email, t.createdAt),
  ],
);

/** Fixed-window counters shared by every app instance (keyed by scope, IP or identifier). */
export const rateLimitBuckets = pgTable(
  "rate_limit_buckets",
  {
    key: text("key").primaryKey(),
    windowStart: timestamp("window_start", { withTimezone: true, precision: 6 }).notNull(),
    hits: integer("hits").notNull(),
  },
  (t) => [index("rate_limit_buckets_window_idx").on(t.windowStart)],
);

/** A user's acceptance of the environment's legal documents, identified by their URLs. */
export const legalAcceptances = pgTable(
  "legal_acceptances",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    termsUrl: text("terms_url"),
    privacyUrl: text("privacy_url"),
    ipAddress: text("ip_address"),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("legal_acceptances_user_idx").on(t.userId, t.acceptedAt)],
);

/** Named claim sets for `POST /_svc/auth/token/{name}`. */
export const jwtTemplates = pgTable(
  "jwt_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    name: text("name").notNull(),
    /** Claims with shortcodes such as `{{user.email}}`, resolved when a token is minted. */
    claims: jsonb("claims").$type<JsonObject>().notNull(),
    lifetimeSeconds: integer("lifetime_seconds").notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex("jwt_templates_environment_name_idx").on(t.environmentId, t.name)],
);

/** Messages sent by the outbox transport, shown at /dev/mailbox; other transports keep no bodies. */
export const outboxEmails = pgTable(
  "outbox_emails",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: uuid("environment_id").references(() => environments.id, { onDelete: "cascade" }),
    toAddress: text("to_address").notNull(),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    template: text("template").notNull(),
    locale: text("locale").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [index("outbox_emails_to_idx").on(t.toAddress, t.createdAt)],
);

/**
 * A user's request for a copy of their data. The export is produced in the
 * background, sealed at rest, downloadable once through an emailed link, and
 * wiped after download or expiry.
 */
export const dataRequests = pgTable(
  "data_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    status: text("status", { enum: ["pending", "ready", "downloaded", "expired", "failed"] }).notNull().default("pending"),
    /** The JSON export sealed under the master key; null before it is built and after download. */
    exportSealed: text("export_sealed"),
    /** SHA-256 of the emailed download token. */
    downloadTokenHash: text("download_token_hash"),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    downloadedAt: timestamp("downloaded_at", { withTimezone: true }),
  },
  (t) => [
    index("data_requests_user_idx").on(t.userId, t.createdAt),
    index("data_requests_status_idx").on(t.status),
    // One export in the making per user: concurrent requests collapse into one.
    uniqueIndex("data_requests_one_pending_idx").on(t.userId).where(sql`status = 'pending'`),
  ],
);

/**
 * Work done outside a request: data exports, the periodic clean-up. Runners claim
 * due rows with `FOR UPDATE SKIP LOCKED` (lib/jobs/run-due-jobs.ts), so any number
 * of processes can share the table; a claim is a lease (`locked_until`), and a
 * runner that dies mid-job leaves it to be claimed again once the lease runs out.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: uuid("environment_id").references(() => environments.id, { onDelete: "cascade" }),
    /** A kind from lib/jobs/job-kinds.ts, which also fixes the payload's shape. */
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<JsonObject>().notNull().default({}),
    /** At most one unfinished job per key: recurring jobs use it so each is scheduled once, whatever the number of runners. */
    singletonKey: text("singleton_key"),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull().default("pending"),
    runAt: timestamp("run_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    /** Claims so far, counted when claimed, so a job that crashes its runner still uses up attempts. */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lockedUntil: timestamp("locked_until", { withTimezone: true, precision: 6 }),
    claimedBy: text("claimed_by"),
    lastError: text("last_error"),
    finishedAt: timestamp("finished_at", { withTimezone: true, precision: 6 }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    index("jobs_due_idx").on(t.runAt).where(sql`finished_at is null`),
    uniqueIndex("jobs_singleton_idx").on(t.singletonKey).where(sql`finished_at is null`),
    index("jobs_finished_idx").on(t.finishedAt).where(sql`finished_at is not null`),
  ],
);

/**
 * A user's authenticator app (RFC 6238): at most one per user. The secret is sealed
 * under the master key. `confirmedAt` is null while enrollment waits for the first
 * code; only a confirmed factor turns MFA on. `lastUsedStep` is the highest time
 * step accepted so far: a code is accepted only for a later step, which makes each
 * code single-use, also under concurrency (one conditional UPDATE wins).
 */
export const totpFactors = pgTable("totp_factors", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  environmentId: environmentIdColumn(),
  secretSealed: text("secret_sealed").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
});

/**
 * Recovery codes: high-entropy, shown once, stored as HMACs under a key derived from
 * the master secret. A regeneration deletes the old set; a use stamps `usedAt` with
 * one conditional UPDATE.
 */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_idx").on(t.userId, t.codeHash)],
);

/**
 * WebAuthn credentials (passkeys). `credentialId` and `publicKey` are base64url.
 * The signature counter only moves forward; the backup flags come from the last
 * authenticator data seen.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull().default(sql`'{}'::text[]`),
    deviceType: text("device_type", { enum: ["singleDevice", "multiDevice"] }).notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    aaguid: text("aaguid"),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("passkeys_credential_idx").on(t.environmentId, t.credentialId),
    index("passkeys_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * WebAuthn challenges, single-use and short-lived. Stored as SHA-256 of the
 * challenge; a ceremony's response is accepted only while its row is live, and
 * consuming the row is one conditional UPDATE.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    /** Null for a discoverable sign-in, where nobody is known yet. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["registration", "authentication", "second_factor", "reverification"] }).notNull(),
    challengeHash: text("challenge_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("webauthn_challenges_hash_idx").on(t.challengeHash), index("webauthn_challenges_expiry_idx").on(t.expiresAt)],
);

/**
 * An environment's OAuth / OpenID Connect providers. `id` is the `{provider}` path
 * segment of the Client API (`[a-z0-9-]{2,32}`), unique per environment. The client
 * secret is sealed with the master key and never returned. `issuer` is required for
 * `oidc` (discovery); the presets know their endpoints (Microsoft and GitLab may
 * override theirs with an issuer, e.g. a tenant or a self-hosted GitLab).
 */
export const oauthProviders = pgTable(
  "oauth_providers",
  {
    environmentId: environmentIdColumn(),
    id: text("id").notNull(),
    type: text("type", { enum: ["oidc", "google", "github", "microsoft", "apple", "gitlab"] }).notNull(),
    name: text("name").notNull(),
    clientId: text("client_id").notNull(),
    clientSecretSealed: text("client_secret_sealed").notNull(),
    issuer: text("issuer"),
    scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
    enabled: boolean("enabled").notNull().default(true),
    /** Order of the buttons on the hosted pages, lowest first. */
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex("oauth_providers_pk_idx").on(t.environmentId, t.id)],
);

/**
 * A provider account connected to a user: (provider, subject) signs in as the user.
 * The row goes with the user (a deleted user's identity is free again: deletion
 * removes the rows). `email` and `emailVerified` are what the provider asserted at
 * the last sign-in.
 */
export const userIdentities = pgTable(
  "user_identities",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    userId: userIdColumn(),
    providerId: text("provider_id").notNull(),
    subject: text("subject").notNull(),
    email: text("email"),
    emailVerified: boolean("email_verified").notNull().default(false),
    /** Display data from the provider: name, picture, username. */
    profile: jsonb("profile").$type<JsonObject>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("user_identities_subject_idx").on(t.environmentId, t.providerId, t.subject),
    index("user_identities_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * One OAuth authorization in flight (10 minutes, single use): the `state` sent to the
 * provider (stored hashed), bound to the browser that started it by the hash of a
 * short-lived cookie, and to the provider; the nonce and the PKCE verifier toward
 * the provider (sealed); what the flow is for (`sign_in`, or `link` / `reverify` for a
 * signed-in user and session); where it ends (`redirectUrl`, already checked against the
 * environment's origins) and on which host it started (`linkBase`, where its cookie
 * lives); for a native app, the app's S256 `codeChallenge`.
 */
export const oauthFlows = pgTable(
  "oauth_flows",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    providerId: text("provider_id").notNull(),
    stateHash: text("state_hash").notNull(),
    browserHash: text("browser_hash").notNull(),
    nonce: text("nonce").notNull(),
    codeVerifierSealed: text("code_verifier_sealed").notNull(),
    intent: text("intent", { enum: ["sign_in", "link", "reverify"] }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id"),
    redirectUrl: text("redirect_url"),
    linkBase: text("link_base").notNull(),
    native: boolean("native").notNull().default(false),
    codeChallenge: text("code_challenge"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("oauth_flows_state_idx").on(t.stateHash),
    index("oauth_flows_expiry_idx").on(t.expiresAt),
    // Every /authorize asks whether the presented browser token has a live flow: without
    // this, a flood of authorize requests scans the whole table each time.
    index("oauth_flows_browser_idx").on(t.browserHash).where(sql`consumed_at is null`),
  ],
);

/**
 * Organizations: groups of users of one environment (a customer company, a team).
 * `slug` is unique per environment.
 */
export const organizations = pgTable(
  "organizations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    logoUrl: text("logo_url"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    publicMetadata: jsonb("public_metadata").$type<JsonObject>().notNull().default({}),
    privateMetadata: jsonb("private_metadata").$type<JsonObject>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("organizations_slug_idx").on(t.environmentId, t.slug),
    index("organizations_environment_created_idx").on(t.environmentId, t.createdAt, t.id),
  ],
);

/**
 * An environment's organization role set: `owner`, `admin` and `member` by default
 * (no rows), or the set the operator stored (PUT /roles replaces it whole). Each
 * role is a key, a display name and the permission keys it grants.
 */
export const organizationRoles = pgTable(
  "organization_roles",
  {
    environmentId: environmentIdColumn(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    permissions: text("permissions").array().notNull().default(sql`'{}'::text[]`),
    position: integer("position").notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex("organization_roles_pk_idx").on(t.environmentId, t.key)],
);

/** A user's membership in an organization, with its role key. One per (organization, user). */
export const organizationMemberships = pgTable(
  "organization_memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: userIdColumn(),
    role: text("role").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("organization_memberships_org_user_idx").on(t.organizationId, t.userId),
    // Keyset pages of an organization's members, oldest first.
    index("organization_memberships_org_created_idx").on(t.organizationId, t.createdAt, t.id),
    index("organization_memberships_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * An invitation to join an organization with a role, sent to an address: the token
 * is stored hashed, lives 7 days and is accepted at most once (a conditional UPDATE
 * on `status`). Accepting needs a signed-in user whose verified address matches.
 */
export const organizationInvitations = pgTable(
  "organization_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    environmentId: environmentIdColumn(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    /** sha256 of the API token: the inviter sees it, so it only lets a matching verified account accept. */
    tokenHash: text("token_hash").notNull(),
    /**
     * sha256 of the mail ticket: only the emailed link carries it, so only it proves the
     * mailbox (sign-up from the invitation). Null on rows from before it existed: those
     * can still be accepted by an existing account, never used to sign up.
     */
    ticketHash: text("ticket_hash"),
    status: text("status", { enum: ["pending", "accepted", "revoked"] }).notNull().default("pending"),
    invitedBy: uuid("invited_by").references(() => users.id, { onDelete: "set null" }),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    sendCount: integer("send_count").notNull().default(1),
    lastSentAt: timestamp("last_sent_at", { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp("created_at", { withTimezone: true, precision: 6 }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("organization_invitations_token_idx").on(t.tokenHash),
    uniqueIndex("organization_invitations_ticket_idx").on(t.ticketHash),
    index("organization_invitations_org_created_idx").on(t.organizationId, t.createdAt, t.id),
  ],
);
