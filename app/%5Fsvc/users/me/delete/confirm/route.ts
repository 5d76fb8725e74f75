import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { confirmAccountDeletion } from "@/lib/users/account-deletion";
import { confirmDeletionOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/delete/confirm — the emailed token soft-deletes the account
export const POST = clientRoute(confirmDeletionOperation, async ({ environment, body, request, responseHeaders }) => {
  const { body: result, cookies } = await confirmAccountDeletion(getDb(), environment, body.token, request);
  for (const cookie of cookies) responseHeaders.append("set-cookie", cookie);
  return result;
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
