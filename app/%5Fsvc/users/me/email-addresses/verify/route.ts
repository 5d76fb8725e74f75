import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientRoute } from "@/lib/http/route";
import { openVerificationLink } from "@/lib/users/email-verification";
import { verifyEmailLinkOperation } from "@/lib/users/me-operations";

// GET /_svc/users/me/email-addresses/verify?token= — the emailed verification link (browsers land on /verify-email)
export const GET = clientRoute(verifyEmailLinkOperation, ({ environment, query, request }) =>
  openVerificationLink(getDb(), environment, query.token, request),
);

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ GET });
