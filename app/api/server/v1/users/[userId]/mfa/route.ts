import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { resetUserFactors } from "@/lib/mfa/reset-factors";
import { resetUserMfaOperation } from "@/lib/users/operations";

// DELETE /api/server/v1/users/{userId}/mfa — remove every second factor and revoke every session
export const DELETE = serverRoute(resetUserMfaOperation, ({ environment, params, actor }) =>
  resetUserFactors(getDb(), environment, params.userId, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
