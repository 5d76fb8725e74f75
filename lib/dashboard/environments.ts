import { getDb } from "@/db/client";
import { AppError } from "../errors";
import { findCustomerEnvironment, type EnvironmentContext } from "../environments/context";
import { listEnvironments } from "../environments/list-environments";
import { retryReadOnce } from "../http/database-faults";
import { requireOperator } from "./operator-session";

export type DashboardEnvironment = Awaited<ReturnType<typeof listEnvironments>>[number];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The environments an operator may switch between: every customer environment (any
 * role reads them; the dashboard's internal environment is never one). No Server API
 * operation lists environments (a secret key belongs to one), so this read is the
 * dashboard's own, behind the same sign-in check as every load.
 */
export async function listDashboardEnvironments(): Promise<DashboardEnvironment[]> {
  await requireOperator();
  return retryReadOnce(() => listEnvironments(getDb()));
}

/** The environment an id names, if it is a customer environment; null for anything else (the internal one, a malformed id). */
export async function findDashboardEnvironment(environmentId: string): Promise<EnvironmentContext | null> {
  if (!UUID.test(environmentId)) return null;
  return retryReadOnce(() => findCustomerEnvironment(getDb(), environmentId));
}

/**
 * The environment a dashboard runner acts in for an operation: the customer
 * environment `environmentId` names (404 resource_not_found for anything else, the
 * internal one included), or none for a dashboard-only operation, which spans them.
 */
export async function environmentForOperation(auth: string, environmentId: string | null): Promise<EnvironmentContext | null> {
  if (auth === "operator") return null;
  const environment = environmentId ? await findDashboardEnvironment(environmentId) : null;
  if (!environment) throw new AppError("resource_not_found", "No environment with this id.");
  return environment;
}

/**
 * The environments to switch between and the one a page shows: the `env` query
 * parameter's when it names one, else the first (oldest); null when there are none.
 */
export async function chooseDashboardEnvironment(
  env: string | string[] | undefined,
): Promise<{ environments: DashboardEnvironment[]; environment: DashboardEnvironment | null }> {
  const environments = await listDashboardEnvironments();
  const chosen = Array.isArray(env) ? env[0] : env;
  const environment = environments.find((candidate) => candidate.environmentId === chosen) ?? environments[0] ?? null;
  return { environments, environment };
}
