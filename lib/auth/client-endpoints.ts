import { toPublicEnvironment } from "../environments/public-environment";
import { endpoint } from "../operation/endpoint";
import { getEnvironmentOperation, getLegalOperation } from "./operations";

/**
 * Client API auth operations whose implementation is a one-line call: the
 * route files serve them over HTTP.
 */
// GET /_svc/legal — whether consent is required, and the documents
export const getLegalEndpoint = endpoint(getLegalOperation, async ({ environment }) => ({ ...environment.settings.legal }));

// GET /_svc/environment — public settings an SDK needs
export const getEnvironmentEndpoint = endpoint(getEnvironmentOperation, async ({ environment }) => toPublicEnvironment(environment));
