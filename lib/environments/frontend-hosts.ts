import { and, eq, inArray, ne, not } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "@/db/client";
import { environmentFrontendHosts, environments } from "@/db/schema";
import { recordEvent, type Actor } from "../audit/record-event";
import { AppError } from "../errors";
import { refuseTakenHost, takenHostError } from "./create-environment";
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
 * Replaces a customer environment's frontend hosts as a whole, with its event, in one
 * transaction. Dashboard-only (lib/applications/operations.ts): a frontend host is
 * where the environment's hosted pages, cookies and the operator's impersonation
 * hand-off go, and nothing here proves that the environment owns the host, so only an
 * operator, who vouches for it, sets it. An unknown environment, and the dashboard's
 * internal one, are 404 as if they did not exist. A host that already serves another
 * environment is 409 identifier_exists: the database's primary key on
 * environment_frontend_hosts decides, so two environments racing for one host cannot
 * both win; the read before the write only names the host in the answer.
 */
export async function replaceFrontendHosts(db: Database, environmentId: string, hosts: string[], actor: Actor): Promise<{ hosts: string[] }> {
  return refuseTakenHost(
    hosts.join(", "),
    () =>
      db.transaction(async (tx) => {
        const [target] = await tx
          .select({ id: environments.id })
          .from(environments)
          .where(and(eq(environments.id, environmentId), not(environments.internal)))
          .for("update");
        if (!target) throw new AppError("resource_not_found", "No environment with this id.");
        const [taken] = await tx
          .select({ host: environmentFrontendHosts.host })
          .from(environmentFrontendHosts)
          .where(and(inArray(environmentFrontendHosts.host, hosts), ne(environmentFrontendHosts.environmentId, environmentId)))
          .limit(1);
        if (taken) throw takenHostError(taken.host, "hosts");
        await tx.update(environments).set({ frontendHosts: hosts, updatedAt: new Date() }).where(eq(environments.id, environmentId));
        await recordEvent(tx, { environmentId, type: "environment.frontend_hosts_replaced", actor, data: { hosts } });
        return { hosts };
      }),
    "hosts",
  );
}
