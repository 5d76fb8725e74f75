import { getDb } from "@/db/client";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { promoteEmailAddress } from "@/lib/users/email-addresses";
import { promoteEmailAddressOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/email-addresses/{id}/primary — make a verified address primary
export const POST = sessionRoute(promoteEmailAddressOperation, ({ environment, session, params, actor }) =>
  promoteEmailAddress(getDb(), environment, session, params.emailAddressId, actor),
);

export const OPTIONS = clientPreflight;
