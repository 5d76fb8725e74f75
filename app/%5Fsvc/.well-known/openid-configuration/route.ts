import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";
import { getOpenIdConfigurationEndpoint } from "@/lib/tokens/client-endpoints";

// GET /_svc/.well-known/openid-configuration — OIDC discovery at `{issuer}/.well-known/...`
export const GET = route(getOpenIdConfigurationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
