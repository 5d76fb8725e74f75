import { defineOperation } from "../operation/operation";
import { activeOrganizationSchema, setActiveOrganizationBody } from "./set-active-organization";

export const setActiveOrganizationOperation = defineOperation({
  operationId: "setActiveOrganization",
  method: "post",
  path: "/_svc/organizations/active",
  summary: "Set the session's active organization",
  description:
    "The organization the session acts for, or null for none. The answer's access token, and every later one while the caller stays a member, carries `org_id`, `org_role` and `org_permissions`; membership is re-checked at every mint, so a removed member's next token has none. An organization the caller is not a member of (or of another environment) is 404 `resource_not_found`; organizations turned off for the environment are 403 `forbidden`.",
  tags: ["Client: organizations"],
  auth: "session",
  // The organization comes in the body, so the route kit checks only that the feature is on; the membership is checked by the rule.
  organization: {},
  body: setActiveOrganizationBody,
  response: { status: 200, description: "The active organization and a fresh access token.", schema: activeOrganizationSchema },
  errors: ["environment_not_found", "origin_not_allowed", "unauthorized", "session_pending", "invalid_request", "forbidden", "resource_not_found"],
});
