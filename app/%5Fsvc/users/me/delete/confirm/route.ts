import { getDb } from "@/db/client";
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
