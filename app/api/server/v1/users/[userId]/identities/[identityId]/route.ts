import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { removeUserIdentity } from "@/lib/identities/manage-identities";
import { removeUserIdentityOperation } from "@/lib/identities/operations";

// DELETE /api/server/v1/users/{userId}/identities/{identityId} — disconnect one of a user's provider accounts (audited)
export const DELETE = serverRoute(removeUserIdentityOperation, ({ environment, params, actor }) =>
  removeUserIdentity(getDb(), environment, params.userId, params.identityId, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
