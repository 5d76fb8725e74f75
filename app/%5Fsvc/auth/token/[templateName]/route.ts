import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";
import { mintTemplateTokenEndpoint } from "@/lib/tokens/client-endpoints";

// POST /_svc/auth/token/{templateName} — mint a token from a JWT template
export const POST = route(mintTemplateTokenEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
