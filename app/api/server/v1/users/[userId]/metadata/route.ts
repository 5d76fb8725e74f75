import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { updateUserMetadataOperation } from "@/lib/users/operations";
import { updateUserMetadata } from "@/lib/users/update-metadata";

// PATCH /api/server/v1/users/{userId}/metadata — deep-merge metadata bags
export const PATCH = serverRoute(updateUserMetadataOperation, ({ environment, params, body, actor }) =>
  updateUserMetadata(getDb(), environment.id, params.userId, body, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, DELETE, OPTIONS } = unsupportedMethods({ PATCH });
