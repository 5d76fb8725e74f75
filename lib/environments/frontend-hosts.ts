import { and, eq, inArray, ne } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { environmentFrontendHosts, environments } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { refuseTakenHost } from "./create-environment";
import { frontendHostSchema } from "./frontend-host";

export const MAX_FRONTEND_HOSTS = 20;

export const frontendHostsSchema = z
  .object({ hosts: z.array(z.string()).meta({ description: "`host[:port]` entries; the first is the primary (links in emails use it)." }) })
  .meta({ id: "FrontendHosts" });

export const frontendHostsBody = z
  .strictObject({
    hosts: z
      .array(frontendHostSchema)
      .min(1, "must list at least one host")
      .max(MAX_FRONTEND_HOSTS, `must list at most ${MAX_FRONTEND_HOSTS} hosts`)
      // Two spellings of one host are one entry (frontendHostSchema spells them alike).
      .transform((hosts) => [...new Set(hosts)]),
  })
  .meta({ id: "FrontendHostsRequest" });

/**
 * Replaces the environment's frontend hosts as a whole, with its event. A host that
 * already serves another environment is 409 identifier_exists: the database's
 * primary key on environment_frontend_hosts decides, so two environments racing for
 * one host cannot both win; the check before it only names the host in the answer.
 */
export async function replaceFrontendHosts(db: Database, environmentId: string, hosts: string[], actor: Actor): Promise<{ hosts: string[] }> {
  const [taken] = await db
    .select({ host: environmentFrontendHosts.host })
    .from(environmentFrontendHosts)
    .where(and(inArray(environmentFrontendHosts.host, hosts), ne(environmentFrontendHosts.environmentId, environmentId)))
    .limit(1);
  return refuseTakenHost(
    taken?.host ?? hosts.join(", "),
    () =>
      db.transaction(async (tx) => {
        await tx.update(environments).set({ frontendHosts: hosts, updatedAt: new Date() }).where(eq(environments.id, environmentId));
        await recordEvent(tx, { environmentId, type: "environment.frontend_hosts_replaced", actor, data: { hosts } });
        return { hosts };
      }),
    "hosts",
  );
}
