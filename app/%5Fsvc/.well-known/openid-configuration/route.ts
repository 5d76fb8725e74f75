import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { openIdConfiguration } from "@/lib/tokens/discovery";
import { getOpenIdConfigurationOperation } from "@/lib/tokens/operations";

// GET /_svc/.well-known/openid-configuration — OIDC discovery at `{issuer}/.well-known/...`
export const GET = clientRoute(getOpenIdConfigurationOperation, openIdConfiguration);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
