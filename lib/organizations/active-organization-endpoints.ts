import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { setActiveOrganizationOperation } from "./active-organization-operations";
import { setActiveOrganization } from "./set-active-organization";

/** POST /_svc/organizations/active: the route and the hosted switcher run this one endpoint through the same pipeline. */
export const setActiveOrganizationEndpoint = endpoint(setActiveOrganizationOperation, ({ environment, session, body, context }) =>
  setActiveOrganization(getDb(), environment, session, body.organizationId, context),
);
