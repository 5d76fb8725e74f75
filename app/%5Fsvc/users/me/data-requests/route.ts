import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { listDataRequests, requestDataExport } from "@/lib/users/data-requests";
import { listDataRequestsOperation, requestDataExportOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/data-requests — the user's data requests
export const GET = sessionRoute(listDataRequestsOperation, ({ session }) => listDataRequests(getDb(), session));

// POST /_svc/users/me/data-requests — request a copy of my data (emailed when ready)
export const POST = sessionRoute(requestDataExportOperation, async ({ environment, session, request, actor }) => {
  await enforceRateLimit(getDb(), environment, "emailSends", request, session.user.id);
  return requestDataExport(getDb(), environment, session, actor);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
