import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { sessions } from "@/db/schema";
import type { EnvironmentContext } from "../environments/context";
import { AppError } from "../errors";
import type { RequestContext } from "../operation/request-context";
import type { ActiveSession } from "../sessions/resolve-session";
import { mintAccessToken } from "../tokens/access-token";
import { accessTokenSchema } from "../tokens/schemas";
import { listMyOrganizations } from "./memberships";
import { myOrganizationSchema } from "./schemas";

export const setActiveOrganizationBody = z
  .object({
    organizationId: z.uuid().nullable().meta({ description: "An organization the caller is a member of, or null to act for none." }),
  })
  .strict();

export const activeOrganizationSchema = z
  .object({
    organization: myOrganizationSchema.nullable().meta({ description: "The organization the session now acts for, or null." }),
    ...accessTokenSchema.shape,
  })
  .meta({
    id: "ActiveOrganization",
    description: "The session's active organization and a fresh access token that already carries its `org_*` claims.",
  });

/**
 * Sets (or clears) the organization the session acts for. Only an organization of
 * the environment the caller is a member of may be chosen; any other id is
 * 404 resource_not_found, the same as one that does not exist. (The operation
 * declares `organization: {}`: the route kit has already refused the call when
 * organizations are off.) Answers with a fresh access token, so the caller need
 * not refresh to see the new claims.
 */
export async function setActiveOrganization(
  db: Database,
  environment: EnvironmentContext,
  active: ActiveSession,
  organizationId: string | null,
  context: RequestContext,
): Promise<z.output<typeof activeOrganizationSchema>> {
  const organization = organizationId
    ? ((await listMyOrganizations(db, environment.id, active.user.id)).find((membership) => membership.id === organizationId) ?? null)
    : null;
  if (organizationId && !organization) throw new AppError("resource_not_found", "No organization with this id among yours.");
  await db
    .update(sessions)
    .set({ activeOrganizationId: organization?.id ?? null })
    .where(and(eq(sessions.id, active.session.id), eq(sessions.environmentId, environment.id)));
  const minted = await mintAccessToken(db, environment, { ...active.session, activeOrganizationId: organization?.id ?? null }, { origin: context.origin });
  return { organization, accessToken: minted.token, expiresAt: minted.expiresAt };
}
