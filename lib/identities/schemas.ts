import { z } from "zod";

const timestamp = z.iso.datetime();

export const identityParams = z.object({ identityId: z.uuid("must be a UUID") });

export const userIdentityParams = z.object({ userId: z.uuid("must be a UUID"), identityId: z.uuid("must be a UUID") });

/** One connected provider account as the Server API's user view lists it. */
export const identitySummarySchema = z
  .object({
    id: z.uuid(),
    provider: z.string().meta({ description: "The OAuth provider's id (the `{provider}` path segment of the Client API)." }),
    email: z.string().nullable().meta({ description: "The email the provider asserted at the last sign-in or link." }),
    emailVerified: z.boolean().meta({ description: "Whether the provider asserted that email verified." }),
    createdAt: timestamp,
    lastSignInAt: timestamp.nullable(),
  })
  .meta({ id: "UserIdentity", description: "A provider account connected to the user: it signs in as them." });

export type IdentitySummary = z.output<typeof identitySummarySchema>;

/** The same, as the user sees it on their own account: with the provider's display name. */
export const identitySchema = identitySummarySchema
  .extend({
    providerName: z.string().meta({ description: "The provider's name as the environment configured it (its id if it was removed since)." }),
    username: z.string().nullable().meta({ description: "The account's username at the provider, when it has one (GitHub, GitLab)." }),
  })
  .meta({ id: "Identity", description: "A provider account connected to the signed-in user." });

export type IdentityView = z.output<typeof identitySchema>;

export const identityListSchema = z.object({ items: z.array(identitySchema) }).meta({ id: "IdentityList" });
