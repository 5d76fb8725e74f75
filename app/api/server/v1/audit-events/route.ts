import { listAuditEventsEndpoint } from "@/lib/audit/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/audit-events — one page of the environment's audit log, newest first
export const GET = route(listAuditEventsEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
