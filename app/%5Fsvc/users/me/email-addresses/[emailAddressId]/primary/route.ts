import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { promoteEmailAddress } from "@/lib/users/email-addresses";
import { promoteEmailAddressOperation } from "@/lib/users/me-operations";

// POST /_svc/users/me/email-addresses/{id}/primary — make a verified address primary
export const POST = sessionRoute(promoteEmailAddressOperation, ({ environment, session, params, actor }) =>
  promoteEmailAddress(getDb(), environment, session, params.emailAddressId, actor),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
