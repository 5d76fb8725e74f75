import { getLegalEndpoint } from "@/lib/auth/client-endpoints";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";

// GET /_svc/legal — whether consent is required, and the documents
export const GET = route(getLegalEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
