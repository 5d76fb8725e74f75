import { z } from "zod";
import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { listMyOrganizations } from "../organizations/memberships";
import { clientUserSchema } from "../users/schemas";
import { toClientUser } from "../users/serialize";
import { sessionState, sessionStateSchema } from "./gates";
import { actorClaim } from "./impersonator";
import type { ActiveSession } from "./resolve-session";

export const bootProbeSchema = z
  .object({
    authenticated: z.boolean(),
    user: z.object({ user: clientUserSchema, session: sessionStateSchema }).nullable(),
    organizations: z.array(
      z
        .object({
          id: z.uuid().meta({ description: "The organization's id." }),
          name: z.string(),
          role: z.string().meta({ description: "The caller's role key in the organization." }),
          roleName: z.string().nullable().meta({ description: "The role's display name in the environment's role set." }),
        })
        .meta({ id: "OrganizationMembership", description: "An organization the caller belongs to, as the caller sees it." }),
    ),
    activeOrganizationId: z
      .uuid()
      .nullable()
      .meta({ description: "The organization the session acts for (its tokens carry `org_*`), one of `organizations`; null for none." }),
  })
  .meta({ id: "Client", description: "`user` is null when not authenticated; so is `activeOrganizationId`, and `organizations` is empty." });

/**
 * What an app needs at every page load: who is signed in, whether their session
 * is ACTIVE and who acts in it (`actor`, during an impersonation), their
 * organizations and which one the session acts for. Always answers: an unknown
 * environment is simply "not signed in". The active organization comes with the
 * session row already read; it counts only while the user is still a member.
 */
export async function bootProbe(
  db: Database,
  environment: EnvironmentContext | null,
  current: ActiveSession | null,
): Promise<z.output<typeof bootProbeSchema>> {
  if (!environment || !current) return { authenticated: false, user: null, organizations: [], activeOrganizationId: null };
  const [session, organizations] = await Promise.all([
    sessionState(db, environment, current.user, current.session.id),
    environment.settings.organizations.enabled ? listMyOrganizations(db, environment.id, current.user.id) : [],
  ]);
  const activeId = current.session.activeOrganizationId;
  return {
    authenticated: true,
    user: { user: toClientUser(current.user), session: { ...session, actor: actorClaim(current.session) } },
    organizations,
    activeOrganizationId: organizations.some((organization) => organization.id === activeId) ? activeId : null,
  };
}
