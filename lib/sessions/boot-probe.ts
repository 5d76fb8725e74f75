import { z } from "zod";
import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { clientUserSchema } from "../users/schemas";
import { toClientUser } from "../users/serialize";
import { sessionState, sessionStateSchema } from "./gates";
import type { ActiveSession } from "./resolve-session";

export const bootProbeSchema = z
  .object({
    authenticated: z.boolean(),
    user: z.object({ user: clientUserSchema, session: sessionStateSchema }).nullable(),
    organizations: z.array(
      z.object({ id: z.uuid(), name: z.string(), role: z.string(), roleName: z.string().nullable() }).meta({ id: "OrganizationMembership" }),
    ),
  })
  .meta({ id: "Client", description: "`user` is null when not authenticated. Organizations arrive with the organizations feature." });

/**
 * What an app needs at every page load: who is signed in and whether their session
 * is ACTIVE. Always answers: an unknown environment is simply "not signed in".
 */
export async function bootProbe(
  db: Database,
  environment: EnvironmentContext | null,
  current: ActiveSession | null,
): Promise<z.output<typeof bootProbeSchema>> {
  if (!environment || !current) return { authenticated: false, user: null, organizations: [] };
  return {
    authenticated: true,
    user: { user: toClientUser(current.user), session: await sessionState(db, environment, current.user, current.session.id) },
    organizations: [],
  };
}
