import { getDb } from "@/db/client";
import { acceptLegalOperation } from "@/lib/auth/operations";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { acceptLegalDocuments } from "@/lib/legal/accept-legal-documents";

// POST /_svc/auth/legal/accept — accept the current legal documents (clears LEGAL_ACCEPTANCE)
export const POST = sessionRoute(acceptLegalOperation, ({ environment, session, request, actor }) =>
  acceptLegalDocuments(getDb(), environment, session, request, actor),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
