import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { replaceRoleSet } from "@/lib/organizations/role-set";
import { readRoleSet } from "@/lib/organizations/roles";
import { serverListRolesOperation, serverReplaceRolesOperation } from "@/lib/organizations/server-operations";

// GET /api/server/v1/roles — the environment's organization role set
export const GET = serverRoute(serverListRolesOperation, async ({ environment }) => ({ items: await readRoleSet(getDb(), environment.id) }));

// PUT /api/server/v1/roles — replace the role set whole
export const PUT = serverRoute(serverReplaceRolesOperation, async ({ environment, body, actor }) => ({
  items: await replaceRoleSet(getDb(), environment.id, body.items, actor),
}));

// Any other method — 405 problem+json with Allow
export const { POST, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, PUT });
