import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, route } from "@/lib/http/route";
import { acceptLegalEndpoint } from "@/lib/auth/endpoints";

// POST /_svc/auth/legal/accept — accept the current legal documents (clears LEGAL_ACCEPTANCE)
export const POST = route(acceptLegalEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
