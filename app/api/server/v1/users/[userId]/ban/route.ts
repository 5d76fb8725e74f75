import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { banUser } from "@/lib/users/ban-user";
import { banUserOperation } from "@/lib/users/operations";

// POST /api/server/v1/users/{userId}/ban — ban and revoke every session
export const POST = serverRoute(banUserOperation, ({ environment, params, actor }) =>
  banUser(getDb(), environment.id, params.userId, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
