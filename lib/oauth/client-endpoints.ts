import { endpoint } from "../operation/endpoint";
import { listPublicOAuthProviders } from "./provider-buttons";
import { listPublicOAuthProvidersOperation } from "./provider-operations";
import { getDb } from "@/db/client";

/**
 * Client API oauth operations whose implementation is a one-line call: the
 * route files serve them over HTTP.
 */
// GET /_svc/auth/oauth2/providers — the enabled sign-in providers (no secrets)
export const listPublicOAuthProvidersEndpoint = endpoint(listPublicOAuthProvidersOperation, ({ environment }) => listPublicOAuthProviders(getDb(), environment.id));
