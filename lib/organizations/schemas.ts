import { z } from "zod";
import { bootProbeSchema } from "../sessions/boot-probe";
import { metadataBagSchema } from "../users/metadata";
import { pageQuery, pageSchema } from "../users/schemas";

const instant = z.iso.datetime();
const metadataOut = z.record(z.string(), z.unknown());

export const organizationIdParams = z.object({ organizationId: z.uuid("must be an organization id") });
export const memberParams = organizationIdParams.extend({ memberUserId: z.uuid("must be a user id") });
export const serverMemberParams = organizationIdParams.extend({ userId: z.uuid("must be a user id") });

const organizationName = z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
const slug = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters and digits separated by single hyphens");
const logoUrl = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2048).nullable();
const roleKey = z.string().min(1).max(60).regex(/^[a-z0-9_-]+$/, "must be lower-case letters, digits, _ or -");
const permissionKey = z.string().min(1).max(100).regex(/^[a-z0-9:_-]+$/, "must be lower-case letters, digits, :, _ or -");

export const orgRoleSchema = z.object({ key: z.string(), name: z.string(), permissions: z.array(z.string()) }).meta({ id: "OrganizationRole" });
export const roleListSchema = z.object({ items: z.array(orgRoleSchema) }).meta({ id: "OrganizationRoleList" });

/** The spec's "Organization membership (as seen by the caller)": the very schema the boot probe lists. */
export const myOrganizationSchema = bootProbeSchema.shape.organizations.element;
export const myOrganizationListSchema = z.object({ items: z.array(myOrganizationSchema) }).meta({ id: "OrganizationMembershipList" });

/** An organization as its members see it, with the caller's role and what it grants. */
export const clientOrganizationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    publicMetadata: metadataOut,
    createdAt: instant,
    role: z.string(),
    roleName: z.string().nullable(),
    permissions: z.array(z.string()),
  })
  .meta({ id: "ClientOrganization" });

export const serverOrganizationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    createdBy: z.uuid().nullable(),
    publicMetadata: metadataOut,
    privateMetadata: metadataOut,
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: "Organization" });
export const serverOrganizationPageSchema = pageSchema(serverOrganizationSchema, "OrganizationPage");

export const memberSchema = z
  .object({
    userId: z.uuid(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    role: z.string(),
    roleName: z.string().nullable(),
    createdAt: instant.meta({ description: "When the user joined." }),
  })
  .meta({ id: "OrganizationMember" });
export const memberPageSchema = pageSchema(memberSchema, "OrganizationMemberPage");

export const createOrganizationBody = z.strictObject({ name: organizationName });
export const serverCreateOrganizationBody = z.strictObject({
  name: organizationName,
  slug: slug.optional().meta({ description: "Unique in the environment; derived from the name when omitted." }),
  logoUrl: logoUrl.optional(),
  createdBy: z.uuid().optional().meta({ description: "A user of the environment who becomes the organization's first owner." }),
  publicMetadata: metadataBagSchema.optional(),
  privateMetadata: metadataBagSchema.optional(),
});
export const updateOrganizationBody = z.strictObject({
  name: organizationName.optional(),
  slug: slug.optional(),
  logoUrl: logoUrl.optional(),
  publicMetadata: metadataBagSchema.optional().meta({ description: "Replaces the bag whole." }),
  privateMetadata: metadataBagSchema.optional().meta({ description: "Replaces the bag whole." }),
});

/** What a member with org:settings:manage may change: the Server API's fields minus the metadata, which stays the operator's. */
export const updateMyOrganizationBody = updateOrganizationBody
  .pick({ name: true, slug: true, logoUrl: true })
  .refine((body) => Object.values(body).some((value) => value !== undefined), "must name at least one of name, slug or logoUrl")
  .meta({ id: "UpdateClientOrganizationRequest" });

export const memberPageQuery = pageQuery.extend({
  query: z.string().trim().min(1).max(100).optional().meta({ description: "Members whose name or email contains this text." }),
});

export const roleBody = z.strictObject({ role: roleKey });
export const addMemberBody = z.strictObject({ userId: z.uuid("must be a user id"), role: roleKey });

export const replaceRolesBody = z.strictObject({
  items: z
    .array(z.strictObject({ key: roleKey, name: z.string().trim().min(1).max(100), permissions: z.array(permissionKey).max(100) }))
    .min(1)
    .max(50),
});
