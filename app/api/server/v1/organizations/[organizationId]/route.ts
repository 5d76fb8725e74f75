import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { deleteOrganization, getOrganizationOrThrow, toServerOrganization, updateOrganization } from "@/lib/organizations/organizations";
import {
  serverDeleteOrganizationOperation,
  serverGetOrganizationOperation,
  serverUpdateOrganizationOperation,
} from "@/lib/organizations/server-operations";

// GET /api/server/v1/organizations/{organizationId} — get an organization
export const GET = serverRoute(serverGetOrganizationOperation, async ({ environment, params }) =>
  toServerOrganization(await getOrganizationOrThrow(getDb(), environment.id, params.organizationId)),
);

// PATCH /api/server/v1/organizations/{organizationId} — update name, slug, logo, metadata
export const PATCH = serverRoute(serverUpdateOrganizationOperation, async ({ environment, params, body, actor }) =>
  toServerOrganization(await updateOrganization(getDb(), environment.id, params.organizationId, body, null, actor)),
);

// DELETE /api/server/v1/organizations/{organizationId} — delete with its memberships and invitations
export const DELETE = serverRoute(serverDeleteOrganizationOperation, async ({ environment, params, actor }) =>
  toServerOrganization(await deleteOrganization(getDb(), environment.id, params.organizationId, null, actor)),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, OPTIONS } = unsupportedMethods({ GET, PATCH, DELETE });
