import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route } from "@/lib/http/route";
import { removeUserIdentityEndpoint } from "@/lib/identities/server-endpoints";

// DELETE /api/server/v1/users/{userId}/identities/{identityId} — disconnect one of a user's provider accounts (audited)
export const DELETE = route(removeUserIdentityEndpoint);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH, OPTIONS } = unsupportedMethods({ DELETE });
