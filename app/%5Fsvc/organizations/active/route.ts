import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { setActiveOrganizationOperation } from "@/lib/organizations/active-organization-operations";
import { setActiveOrganization } from "@/lib/organizations/set-active-organization";

// POST /_svc/organizations/active — the organization the session acts for
export const POST = sessionRoute(setActiveOrganizationOperation, ({ environment, session, body, context }) =>
  setActiveOrganization(getDb(), environment, session, body.organizationId, context),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
