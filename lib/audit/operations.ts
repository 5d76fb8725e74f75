import { defineOperation } from "../operation/operation";
import { activitySummarySchema, auditEventPageSchema, auditEventsQuery } from "./schemas";

const tags = ["Audit log"];

export const listAuditEventsOperation = defineOperation({
  operationId: "listAuditEvents",
  method: "get",
  path: "/api/server/v1/audit-events",
  summary: "List audit events",
  description:
    "The environment's audit log, newest first (in the order events were written), by keyset: pass `nextCursor` as `cursor`. " +
    "Filters combine: `actor` (the actor's id, or the impersonator's), `type` (one type or a namespace such as `organization.*`), " +
    "`userId` (events whose subject is the user: account, email, session, factor, identity events), `organizationId` (the organization's events, " +
    "membership and invitation events included; the member is `data.userId`), `after` (inclusive) and `before` (exclusive). Payloads hold ids, " +
    "counts and field names, never secrets, so a `read` operator sees them as a secret key does.",
  tags,
  auth: "server",
  operatorPermission: "read",
  query: auditEventsQuery,
  response: { status: 200, description: "One page of audit events.", schema: auditEventPageSchema },
  errors: ["invalid_request", "unauthorized"],
});

export const getActivitySummaryOperation = defineOperation({
  operationId: "getActivitySummary",
  method: "get",
  path: "/api/server/v1/activity-summary",
  summary: "Activity summary",
  description:
    "Counts for an overview: users (active and banned), sign-ups (`user.signed_up` and `user.created` events) and sign-ins " +
    "(sessions opened, `session.created`, impersonations excluded) today and over the last 7 days. Days are UTC: `today` starts at " +
    "00:00 UTC, `last7Days` at 00:00 UTC six days earlier (today and the six days before it). Counted at most every 30 seconds per " +
    "environment: an answer may be up to 30 s old.",
  tags,
  auth: "server",
  operatorPermission: "read",
  response: { status: 200, description: "The environment's activity.", schema: activitySummarySchema },
  errors: ["unauthorized"],
});
