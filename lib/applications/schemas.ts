import { z } from "zod";
import { frontendHostSchema } from "../environments/frontend-host";
import { pageSchema } from "../users/schemas";

/** A display name: trimmed, 1 to 100 characters, no control characters. */
export const displayNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[^\p{Cc}]*$/u, "must not contain control characters");

const environmentKind = z.enum(["development", "production"]);
const timestamp = z.iso.datetime();

export const applicationEnvironmentSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  kind: environmentKind,
  publishableKey: z.string(),
  frontendHosts: z.array(z.string()),
  createdAt: timestamp,
});

export const applicationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: timestamp,
  environments: z.array(applicationEnvironmentSchema),
});

export const applicationPageSchema = pageSchema(applicationSchema, "ApplicationPage");

export const applicationPageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  cursor: z.uuid().optional(),
});

export const applicationParams = z.strictObject({ applicationId: z.uuid() });
export const environmentParams = z.strictObject({ environmentId: z.uuid() });

/** An environment as created, with its first secret key: the only time that key is shown. */
export const createdEnvironmentSchema = z.object({
  applicationId: z.uuid(),
  environmentId: z.uuid(),
  publishableKey: z.string(),
  secretKey: z.string(),
  frontendHost: z.string(),
});

export const newEnvironmentFields = {
  kind: environmentKind.default("development"),
  frontendHost: frontendHostSchema.optional(),
};

export const createApplicationBody = z.strictObject({
  name: displayNameSchema,
  /** The first environment's name; "Development" when omitted. */
  environmentName: displayNameSchema.default("Development"),
  ...newEnvironmentFields,
});

export const addEnvironmentBody = z.strictObject({ name: displayNameSchema, ...newEnvironmentFields });

export const renameBody = z.strictObject({ name: displayNameSchema });

/** What a deletion must repeat: the name of what it deletes, typed by the operator (type-to-confirm). */
export const confirmationBody = z.strictObject({ confirmation: z.string().max(200) });

export const renamedSchema = z.object({ id: z.uuid(), name: z.string() });
export const deletedSchema = z.object({ id: z.uuid(), deletedEnvironments: z.int().min(0) });
