import { getDb } from "@/db/client";
import { endpoint } from "../http/pipeline";
import { setActiveOrganizationOperation } from "../organizations/active-organization-operations";
import { setActiveOrganization } from "../organizations/set-active-organization";

/** POST /_svc/organizations/active as an endpoint object, so the hosted switcher runs it through the same pipeline as the route. */
export const setActiveOrganizationEndpoint = endpoint(setActiveOrganizationOperation, ({ environment, session, body, context }) =>
  setActiveOrganization(getDb(), environment, session, body.organizationId, context),
);
