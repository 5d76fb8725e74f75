import { getDb } from "@/db/client";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { wantsHtml } from "@/lib/http/see-other";
import { openVerificationLink, verifyEmailLink } from "@/lib/users/email-verification";
import { openEmailVerificationLinkOperation, verifyEmailAddressOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/email-addresses/verify?token= — the emailed link: changes nothing (browsers land on the confirmation page)
export const GET = clientRoute(openEmailVerificationLinkOperation, ({ environment, query, request }) =>
  openVerificationLink(getDb(), environment, query.token, { browser: wantsHtml(request) }),
);

// POST /_svc/users/me/email-addresses/verify — confirm the link: verifies the address, once
export const POST = clientRoute(verifyEmailAddressOperation, ({ environment, body }) => verifyEmailLink(getDb(), environment, body.token));

export const OPTIONS = clientPreflight;
