import { z } from "zod";
import type { Database } from "@/db/client";
import type { EnvironmentContext } from "../environments/context";
import { findClientEnvironment } from "../environments/resolve-client-environment";
import { clientUserSchema } from "../users/schemas";
import { toClientUser } from "../users/serialize";
import { sessionState, sessionStateSchema } from "./gates";
import { findActiveSession } from "./resolve-session";

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
export async function bootProbe(db: Database, request: Request): Promise<{ environment: EnvironmentContext | null; body: z.output<typeof bootProbeSchema> }> {
  const signedOut = { authenticated: false, user: null, organizations: [] };
  const environment = await findClientEnvironment(db, request);
  if (!environment) return { environment: null, body: signedOut };
  const current = await findActiveSession(db, environment, request);
  if (!current) return { environment, body: signedOut };
  return {
    environment,
    body: {
      authenticated: true,
      user: { user: toClientUser(current.user), session: await sessionState(db, environment, current.user, current.session.id) },
      organizations: [],
    },
  };
}
