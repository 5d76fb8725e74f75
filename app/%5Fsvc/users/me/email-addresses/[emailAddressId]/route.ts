import { getDb } from "@/db/client";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { removeEmailAddress } from "@/lib/users/email-addresses";
import { removeEmailAddressOperation } from "@/lib/users/me-operations";

// DELETE /_svc/users/me/email-addresses/{id} — remove a non-primary address (recent sign-in required)
export const DELETE = sessionRoute(removeEmailAddressOperation, ({ environment, session, params, actor }) =>
  removeEmailAddress(getDb(), environment, session, params.emailAddressId, actor),
);

export const OPTIONS = clientPreflight;
