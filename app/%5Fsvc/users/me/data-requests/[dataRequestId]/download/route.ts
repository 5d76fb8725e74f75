import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientRoute } from "@/lib/http/route";
import { downloadDataExport } from "@/lib/users/data-requests";
import { downloadDataExportOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/data-requests/{id}/download?token= — the emailed single-use download
export const GET = clientRoute(downloadDataExportOperation, async ({ environment, params, query, effects }) => {
  effects.headers.set("content-disposition", `attachment; filename="data-export-${params.dataRequestId}.json"`);
  return downloadDataExport(getDb(), environment, params.dataRequestId, query.token);
});

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
