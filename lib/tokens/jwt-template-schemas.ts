import { z } from "zod";
import { refuseProtoKeys } from "../json/proto-keys";
import { MAX_TEMPLATE_LIFETIME_SECONDS, MIN_TOKEN_LIFETIME_SECONDS } from "./lifetimes";
import { MAX_TEMPLATE_CLAIMS_BYTES, RESERVED_CLAIMS, templateClaimProblems } from "./template-claims";

/** Names appear in Client API paths (`/auth/token/{name}`): URL-safe, no encoding surprises. */
export const templateNameSchema = z
  .string()
  .regex(/^[a-z0-9_-]{1,64}$/i, "must be 1-64 letters, digits, `_` or `-`")
  .meta({ description: "Unique in the environment, case-sensitive; used in `POST /_svc/auth/token/{templateName}`." });

/**
 * Claims with shortcodes. `__proto__` is refused at any depth (the raw input is
 * checked: zod's record parser would silently drop the key); the other rules
 * (reserved claims, size, no private metadata) live in template-claims.ts.
 */
export const templateClaimsSchema = refuseProtoKeys(
  z.record(z.string(), z.json()).superRefine((claims, ctx) => {
    for (const problem of templateClaimProblems(claims)) ctx.addIssue({ code: "custom", path: problem.path, message: problem.message });
  }),
).meta({
  description: [
    `A JSON object of at most ${MAX_TEMPLATE_CLAIMS_BYTES} bytes. String values may hold shortcodes:`,
    "`{{user.id}}`, `{{user.email}}`, `{{user.first_name}}`, `{{user.last_name}}`, `{{user.name}}`,",
    "`{{user.email_verified}}`, `{{user.public_metadata}}` / `{{user.public_metadata.a.b}}`, `{{user.unsafe_metadata...}}`,",
    "`{{session.id}}`, `{{org.id}}` (null until organizations exist). A string that is exactly one shortcode takes",
    "the value's JSON type; inside a longer string the value is interpolated as text (null as empty).",
    "Unknown shortcodes resolve to null. `{{user.private_metadata}}` is refused.",
    `Reserved claims, always set by Gatehouse: ${RESERVED_CLAIMS.join(", ")}.`,
  ].join(" "),
});

const lifetimeSecondsSchema = z
  .int()
  .min(MIN_TOKEN_LIFETIME_SECONDS)
  .max(MAX_TEMPLATE_LIFETIME_SECONDS)
  .meta({ description: `Token lifetime in seconds, ${MIN_TOKEN_LIFETIME_SECONDS}..${MAX_TEMPLATE_LIFETIME_SECONDS}.` });

export const createJwtTemplateBody = z
  .strictObject({
    name: templateNameSchema,
    claims: templateClaimsSchema,
    lifetimeSeconds: lifetimeSecondsSchema.optional().meta({
      description: "Defaults to the environment's `sessions.tokenLifetimeSeconds` at creation.",
    }),
  })
  .meta({ id: "CreateJwtTemplateRequest" });

export const updateJwtTemplateBody = z
  .strictObject({
    name: templateNameSchema.optional(),
    claims: templateClaimsSchema.optional().meta({ description: "Replaces the claims as a whole." }),
    lifetimeSeconds: lifetimeSecondsSchema.optional(),
  })
  .meta({ id: "UpdateJwtTemplateRequest" });

export const jwtTemplateSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    claims: z.record(z.string(), z.unknown()),
    lifetimeSeconds: z.int(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "JwtTemplate" });

export const jwtTemplateListSchema = z
  .object({ data: z.array(jwtTemplateSchema) })
  .meta({ id: "JwtTemplateList", description: "Every template of the environment, by name." });

export const templateIdParams = z.object({ templateId: z.uuid("must be a UUID") });
export const templateNameParams = z.object({ templateName: templateNameSchema });

export type JwtTemplate = z.output<typeof jwtTemplateSchema>;
export type CreateJwtTemplateInput = z.output<typeof createJwtTemplateBody>;
export type UpdateJwtTemplateInput = z.output<typeof updateJwtTemplateBody>;
