import { z } from "zod";
import { emailSchema } from "../users/email";
import { pageQuery, pageSchema, passwordInputSchema, personNameSchema } from "../users/schemas";

const timestamp = z.iso.datetime();
const token = z.string().min(1, "must not be empty").max(200, "is too long");
const roleKey = z.string().min(1, "must not be empty").max(64, "is too long");

export const organizationParams = z.strictObject({ organizationId: z.uuid() });
export const invitationParams = z.strictObject({ organizationId: z.uuid(), invitationId: z.uuid() });

export const inviteBody = z
  .strictObject({
    email: emailSchema,
    role: roleKey.meta({ description: "A role key of the environment's role set; only an owner may invite an owner." }),
  })
  .meta({ id: "InviteToOrganizationRequest" });

export const acceptInvitationBody = z
  .strictObject({ token: token.meta({ description: "The invitation's API token, or the mail ticket from the emailed link." }) })
  .meta({ id: "AcceptInvitationRequest" });

export const signUpFromTicketBody = z
  .strictObject({
    ticket: token.meta({ description: "The mail ticket: the `token` parameter of the emailed invitation link (not the `token` of the invite answer)." }),
    password: passwordInputSchema,
    name: personNameSchema.optional().meta({ description: "Split into first name (first word) and last name (the rest)." }),
  })
  .meta({ id: "SignUpFromTicketRequest" });

export const listInvitationsQuery = z.strictObject({
  ...pageQuery.shape,
  status: z.enum(["pending", "accepted", "revoked"]).default("pending").meta({ description: "Which invitations: pending (default), accepted or revoked." }),
});

/** The spec's Organization invitation: what invite and resend answer, with the clear API token this once (never the mail ticket). */
export const organizationInvitationSchema = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    email: z.string(),
    role: z.string(),
    token: z.string().meta({
      description:
        "The invitation's API token, shown only in this answer (stored hashed): it lets an existing account with the invited address verified accept, for apps that send their own emails. It cannot create an account; only the emailed link can.",
    }),
    expiresAt: timestamp,
  })
  .meta({ id: "OrganizationInvitation" });

/** An invitation as listed and revoked: never its token. */
export const invitationSummarySchema = z
  .object({
    id: z.uuid(),
    organizationId: z.uuid(),
    email: z.string(),
    role: z.string(),
    status: z.enum(["pending", "accepted", "revoked"]),
    invitedBy: z.uuid().nullable(),
    acceptedBy: z.uuid().nullable(),
    sendCount: z.int(),
    expiresAt: timestamp,
    lastSentAt: timestamp,
    acceptedAt: timestamp.nullable(),
    revokedAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "OrganizationInvitationSummary" });

export const invitationPageSchema = pageSchema(invitationSummarySchema, "OrganizationInvitationPage");

export type OrganizationInvitation = z.output<typeof organizationInvitationSchema>;
export type InvitationSummary = z.output<typeof invitationSummarySchema>;
