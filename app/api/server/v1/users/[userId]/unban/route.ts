import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { unbanUser } from "@/lib/users/ban-user";
import { unbanUserOperation } from "@/lib/users/operations";

// POST /api/server/v1/users/{userId}/unban — lift a ban
export const POST = serverRoute(unbanUserOperation, ({ environment, params, actor }) =>
  unbanUser(getDb(), environment.id, params.userId, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
