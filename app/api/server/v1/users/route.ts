import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { createUser } from "@/lib/users/create-user";
import { createUserOperation } from "@/lib/users/operations";

// POST /api/server/v1/users — create a user
export const POST = serverRoute(createUserOperation, ({ environment, body, actor }) =>
  createUser(getDb(), environment, body, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
