import { exportAuditEventsEndpoint } from "@/lib/audit/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/audit-events/export — every matching audit event as NDJSON, newest first
export const GET = route(exportAuditEventsEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
