import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { createOrganization, listOrganizations, toServerOrganization } from "@/lib/organizations/organizations";
import { serverCreateOrganizationOperation, serverListOrganizationsOperation } from "@/lib/organizations/server-operations";

// GET /api/server/v1/organizations — one page of the environment's organizations
export const GET = serverRoute(serverListOrganizationsOperation, ({ environment, query }) => listOrganizations(getDb(), environment.id, query));

// POST /api/server/v1/organizations — create an organization (createdBy becomes its owner)
export const POST = serverRoute(serverCreateOrganizationOperation, async ({ environment, body, actor }) => {
  const { createdBy, ...input } = body;
  const { row } = await createOrganization(getDb(), environment, input, createdBy ?? null, actor);
  return toServerOrganization(row);
});

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, POST });
