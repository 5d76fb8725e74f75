import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { removeEmailAddress } from "@/lib/users/email-addresses";
import { removeEmailAddressOperation } from "@/lib/users/me-operations";

// DELETE /_svc/users/me/email-addresses/{id} — remove a non-primary address (recent sign-in required)
export const DELETE = sessionRoute(removeEmailAddressOperation, ({ environment, session, params, actor }) =>
  removeEmailAddress(getDb(), environment, session, params.emailAddressId, actor),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, POST, PUT, PATCH } = unsupportedMethods({ DELETE, OPTIONS });
