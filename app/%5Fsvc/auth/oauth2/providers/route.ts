import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { listPublicOAuthProviders } from "@/lib/oauth/provider-buttons";
import { listPublicOAuthProvidersOperation } from "@/lib/oauth/provider-operations";

// GET /_svc/auth/oauth2/providers — the enabled sign-in providers (no secrets)
export const GET = clientRoute(listPublicOAuthProvidersOperation, ({ environment }) => listPublicOAuthProviders(getDb(), environment.id));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
