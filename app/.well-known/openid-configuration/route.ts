import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { route, clientPreflight } from "@/lib/http/route";
import { getRootOpenIdConfigurationEndpoint } from "@/lib/tokens/client-endpoints";

// GET /.well-known/openid-configuration — the same discovery document at the root, for tools that look only there
export const GET = route(getRootOpenIdConfigurationEndpoint);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
