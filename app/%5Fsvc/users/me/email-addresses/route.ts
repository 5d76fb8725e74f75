import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { enforceRateLimit } from "@/lib/rate-limit/enforce";
import { addEmailAddress, listEmailAddresses } from "@/lib/users/email-addresses";
import { addEmailAddressOperation, listEmailAddressesOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/email-addresses — the user's addresses
export const GET = sessionRoute(listEmailAddressesOperation, ({ session }) => listEmailAddresses(getDb(), session));

// POST /_svc/users/me/email-addresses — add an address and email it a verification link
export const POST = sessionRoute(addEmailAddressOperation, async ({ environment, session, body, request, actor }) => {
  await enforceRateLimit(getDb(), environment, "emailSends", request, session.user.id);
  return addEmailAddress(getDb(), environment, session, body.email, actor);
});

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { PUT, PATCH, DELETE } = unsupportedMethods({ GET, POST, OPTIONS });
