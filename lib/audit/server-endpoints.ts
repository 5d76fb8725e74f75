import { getDb } from "@/db/client";
import { endpoint } from "../operation/endpoint";
import { StreamedBody } from "../operation/streamed-body";
import { readActivitySummary } from "./activity-summary";
import { exportAuditEvents, listAuditEvents } from "./list-audit-events";
import { exportAuditEventsOperation, getActivitySummaryOperation, listAuditEventsOperation } from "./operations";

/**
 * The Server API's audit operations with their implementations: the route files
 * serve them over HTTP and the dashboard runs them, through one pipeline.
 */
// GET /api/server/v1/audit-events — one page of the environment's audit log
export const listAuditEventsEndpoint = endpoint(listAuditEventsOperation, ({ environment, query }) => listAuditEvents(getDb(), environment.id, query));

// GET /api/server/v1/audit-events/export — every matching event as NDJSON, streamed in batches
export const exportAuditEventsEndpoint = endpoint(exportAuditEventsOperation, ({ environment, query }) =>
  StreamedBody.ndjson(exportAuditEvents(getDb(), environment.id, query)),
);

// GET /api/server/v1/activity-summary — users, sign-ups and sign-ins today and this week
export const getActivitySummaryEndpoint = endpoint(getActivitySummaryOperation, ({ environment }) => readActivitySummary(getDb(), environment.id));
