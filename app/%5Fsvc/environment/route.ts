import { getEnvironmentOperation } from "@/lib/auth/operations";
import { toPublicEnvironment } from "@/lib/environments/public-environment";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// GET /_svc/environment — public settings an SDK needs
export const GET = clientRoute(getEnvironmentOperation, async ({ environment }) => toPublicEnvironment(environment));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
