import { asc, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { applications, environments } from "@/db/schema";

/** Every customer environment, oldest first; the dashboard's internal environment is not one. */
export async function listEnvironments(db: Database) {
  return db
    .select({
      environmentId: environments.id,
      name: environments.name,
      kind: environments.kind,
      applicationId: environments.applicationId,
      applicationName: applications.name,
      publishableKey: environments.publishableKey,
      frontendHosts: environments.frontendHosts,
      createdAt: environments.createdAt,
    })
    .from(environments)
    .innerJoin(applications, eq(applications.id, environments.applicationId))
    .where(eq(environments.internal, false))
    .orderBy(asc(environments.createdAt));
}
