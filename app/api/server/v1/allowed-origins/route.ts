import { getDb } from "@/db/client";
import { replaceAllowedOrigins } from "@/lib/environments/allowed-origins";
import { getAllowedOriginsOperation, replaceAllowedOriginsOperation } from "@/lib/environments/operations";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";

// GET /api/server/v1/allowed-origins — list allowed origins
export const GET = serverRoute(getAllowedOriginsOperation, async ({ environment }) => ({
  origins: environment.allowedOrigins,
}));

// PUT /api/server/v1/allowed-origins — replace the list
export const PUT = serverRoute(replaceAllowedOriginsOperation, ({ environment, body, actor }) =>
  replaceAllowedOrigins(getDb(), environment.id, body.origins, actor),
);

// Any other method — 405 problem+json with Allow
export const { POST, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET, PUT });
