import { operatorMay, type ServerCaller } from "../operation/caller";
import { z } from "zod";
import { AppError } from "../errors";
import { deepMerge, type JsonObject } from "../json/deep-merge";
import { refuseProtoKeys } from "../json/proto-keys";
import { normalizeOrigin } from "./allowed-origins";

const documentUrl = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(2048)
  .nullable()
  .default(null);

const seconds = (min: number, max: number) => z.int().min(min).max(max);

/**
 * A CSP `frame-ancestors` source for the hosted pages: `'none'`, `'self'`, or an
 * http(s) origin (normalised; no wildcards, paths or other schemes).
 */
const frameAncestor = z
  .string()
  .max(2048)
  .refine(
    (value) => value === "'none'" || value === "'self'" || (/^https?:\/\//i.test(value) && normalizeOrigin(value) !== null),
    "must be 'none', 'self' or an origin like https://app.example.com",
  )
  .overwrite((value) => (value.startsWith("'") ? value : (normalizeOrigin(value) ?? value)));

/** At most `limit` requests per `windowSeconds`, counted per IP and per identifier. */
const limitRule = (limit: number, windowSeconds: number) =>
  z
    .strictObject({
      limit: z.int().min(1).max(100_000).default(limit),
      windowSeconds: z.int().min(1).max(86_400).default(windowSeconds),
    })
    .prefault({});

/**
 * Every environment setting with its default (CONTRACT §6). Settings are stored
 * whole; a PATCH deep-merges into them and the result is parsed with this schema,
 * so a key set to null falls back to its default and unknown keys are refused.
 */
export const environmentSettingsSchema = z
  .strictObject({
    legal: z
      .strictObject({
        requireConsent: z.boolean().default(false),
        termsUrl: documentUrl,
        privacyUrl: documentUrl,
      })
      .prefault({}),
    signUp: z
      .strictObject({
        enabled: z.boolean().default(true),
        requireEmailVerification: z.boolean().default(true),
        captcha: z
          .strictObject({
            enabled: z.boolean().default(false),
            /** `turnstile` verifies with Cloudflare (TURNSTILE_SECRET_KEY); `test` accepts exactly testPassToken. */
            provider: z.enum(["turnstile", "test"]).default("turnstile"),
            siteKey: z.string().max(200).nullable().default(null),
            testPassToken: z.string().max(200).nullable().default(null),
          })
          .prefault({}),
      })
      .prefault({}),
    passwordPolicy: z
      .strictObject({
        minLength: z.int().min(8).max(256).default(8),
        maxLength: z.int().min(8).max(1024).default(256),
        rejectCommon: z.boolean().default(true),
      })
      .prefault({}),
    sessions: z
      .strictObject({
        lifetimeSeconds: seconds(300, 31_536_000).default(604_800),
        inactivitySeconds: seconds(300, 31_536_000).nullable().default(null),
        tokenLifetimeSeconds: seconds(30, 3600).default(60),
        /** How recent a password proof must be for sensitive operations (email removal, deletion...). */
        reverificationSeconds: seconds(60, 86_400).default(600),
      })
      .prefault({}),
    rateLimits: z
      .strictObject({
        enabled: z.boolean().default(true),
        signUp: limitRule(5, 10),
        signIn: limitRule(5, 10),
        codeAttempts: limitRule(3, 10),
        emailSends: limitRule(5, 600),
        /**
         * Passkey ceremony options (a stored challenge each). Looser than signIn: the hosted
         * sign-in page asks for them on every view, for passkey autofill.
         */
        passkeyOptions: limitRule(30, 60),
        /** Invitations sent (new or resent), per organization and per IP. */
        organizationInvitations: limitRule(50, 3600),
        /**
         * Per address and day, across every token: wrong sign-up or reset codes, and code
         * emails sent. A fresh token per guess would otherwise reset the per-code limit.
         */
        codeFailuresPerEmail: limitRule(20, 86_400),
        codeSendsPerEmail: limitRule(10, 86_400),
        /** Consecutive failed sign-ins after which each further attempt must wait, doubling each time. */
        failedSignInThreshold: z.int().min(5).max(100_000).default(100),
      })
      .prefault({}),
    mfa: z.strictObject({ required: z.boolean().default(false) }).prefault({}),
    organizations: z
      .strictObject({
        /** Off: the Client API's organization operations answer 403 forbidden (the Server API still manages them). */
        enabled: z.boolean().default(true),
        /** How many organizations one user may belong to. */
        maxPerUser: z.int().min(1).max(100_000).default(100),
        /** How many members one organization may have. */
        maxMembers: z.int().min(1).max(1_000_000).default(10_000),
      })
      .prefault({}),
    branding: z
      .strictObject({
        applicationName: z.string().trim().min(1).max(100).default("Gatehouse"),
        logoUrl: documentUrl,
        accentColor: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour like #4f46e5")
          .nullable()
          .default(null),
        defaultLocale: z.enum(["en", "da"]).default("en"),
        /** Where hosted pages send users when no acceptable redirect_url is given. */
        homeUrl: documentUrl,
      })
      .prefault({}),
    security: z
      .strictObject({
        /** Who may frame the hosted pages (CSP frame-ancestors); the default refuses every frame (clickjacking). */
        frameAncestors: z.array(frameAncestor).min(1).max(20).default(["'none'"]),
      })
      .prefault({}),
    auditLog: z
      .strictObject({
        /**
         * Events older than this many days are deleted by the hourly clean-up
         * (lib/audit/retention.ts): 1 day to 10 years, a year by default. There is no
         * "forever" (a null resets to the default, as every key): 3650 is the most.
         */
        retentionDays: z.int().min(1).max(3650).default(365),
      })
      .prefault({}),
  })
  .superRefine((settings, ctx) => {
    if (settings.security.frameAncestors.includes("'none'") && settings.security.frameAncestors.length > 1) {
      ctx.addIssue({ code: "custom", path: ["security", "frameAncestors"], message: "'none' cannot be combined with other sources" });
    }
    if (settings.passwordPolicy.minLength > settings.passwordPolicy.maxLength) {
      ctx.addIssue({
        code: "custom",
        path: ["passwordPolicy", "minLength"],
        message: "must not exceed passwordPolicy.maxLength",
      });
    }
    if (settings.legal.requireConsent && !settings.legal.termsUrl && !settings.legal.privacyUrl) {
      ctx.addIssue({
        code: "custom",
        path: ["legal", "termsUrl"],
        message: "requireConsent needs a termsUrl or privacyUrl for users to read",
      });
    }
  })
  .meta({ id: "EnvironmentSettings" });

export type EnvironmentSettings = z.output<typeof environmentSettingsSchema>;

/**
 * A partial settings object; its shape is checked after merging. `__proto__` is
 * checked here, before zod's record parser drops it: as an unknown key it is a 400.
 */
export const environmentSettingsPatchSchema = refuseProtoKeys(z.record(z.string(), z.unknown())).meta({ id: "EnvironmentSettingsPatch", description: "Any subset of EnvironmentSettings; null resets a key to its default." });

export function defaultSettings(applicationName: string): EnvironmentSettings {
  return environmentSettingsSchema.parse({ branding: { applicationName } });
}

/** Stored settings, completed with defaults added since they were written. */
export function readSettings(stored: JsonObject): EnvironmentSettings {
  return environmentSettingsSchema.parse(stored);
}

export function mergeSettings(current: EnvironmentSettings, patch: JsonObject): EnvironmentSettings {
  const result = environmentSettingsSchema.safeParse(deepMerge(current, patch));
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue ? issue.path.map(String).join(".") : "settings";
    throw new AppError("invalid_request", `${field}: ${issue?.message ?? "invalid"}`, {
      fieldErrors: result.error.issues.map((i) => ({
        field: i.path.map(String).join("."),
        code: i.code,
        message: i.message,
      })),
    });
  }
  return result.data;
}

/**
 * The settings as a caller may read them: an operator whose role may not see secrets
 * (a viewer) gets the captcha's test pass token withheld (null), since whoever holds
 * it passes the environment's CAPTCHA. Secret keys and the other roles see it whole.
 */
export function settingsShownTo(caller: ServerCaller, settings: EnvironmentSettings): EnvironmentSettings {
  if (caller.kind !== "operator" || operatorMay(caller.operator.role, "revealSecrets")) return settings;
  return { ...settings, signUp: { ...settings.signUp, captcha: { ...settings.signUp.captcha, testPassToken: null } } };
}
