import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { openIdConfiguration } from "@/lib/tokens/discovery";
import { getRootOpenIdConfigurationOperation } from "@/lib/tokens/operations";

// GET /.well-known/openid-configuration — the same discovery document at the root, for tools that look only there
export const GET = clientRoute(getRootOpenIdConfigurationOperation, openIdConfiguration);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
