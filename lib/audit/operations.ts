import { defineOperation } from "../operation/operation";
import { activitySummarySchema, auditEventPageSchema, auditEventSchema, auditEventsExportQuery, auditEventsQuery } from "./schemas";

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
    "counts and field names, never secrets, so a `read` operator sees them as a secret key does. Events older than the environment's " +
    "`auditLog.retentionDays` setting (default 365) are deleted by the hourly clean-up. For a bulk copy use `GET /audit-events/export`.",
  tags,
  auth: "server",
  operatorPermission: "read",
  query: auditEventsQuery,
  response: { status: 200, description: "One page of audit events.", schema: auditEventPageSchema },
  errors: ["invalid_request", "unauthorized"],
});

export const exportAuditEventsOperation = defineOperation({
  operationId: "exportAuditEvents",
  method: "get",
  path: "/api/server/v1/audit-events/export",
  summary: "Export audit events (NDJSON)",
  description:
    "Every audit event matching the filters, streamed as `application/x-ndjson`: one AuditEvent (the list's item shape) a line, " +
    "newest first, the list's order, so the export is the concatenation of the list's pages. The filters are the list's " +
    "(`actor`, `type`, `userId`, `organizationId`, `after`, `before`); `cursor` resumes an interrupted export after the last line " +
    "received (its `id`). The server reads the log in batches of 1,000 as the client reads, so an export of millions of events " +
    "needs no more memory than one batch; events written after the export began are not in it. An empty result is an empty body. " +
    "A bad filter or cursor is a problem+json answer before any line is sent; a failure mid-stream aborts the transfer " +
    "(never a short body that looks complete). Example: " +
    "`curl -H \"Authorization: Bearer $SECRET_KEY\" \"$GATEHOUSE/api/server/v1/audit-events/export?after=2025-01-01T00:00:00Z\" > audit.ndjson`.",
  tags,
  auth: "server",
  operatorPermission: "read",
  query: auditEventsExportQuery,
  response: { status: 200, description: "One AuditEvent a line, newest first.", schema: auditEventSchema, contentType: "application/x-ndjson" },
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
