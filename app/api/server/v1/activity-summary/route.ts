import { getActivitySummaryEndpoint } from "@/lib/audit/server-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";

// GET /api/server/v1/activity-summary — users, sign-ups and sign-ins today and over the last 7 days (UTC days)
export const GET = route(getActivitySummaryEndpoint);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
