import { getEnvironmentOperation } from "@/lib/auth/operations";
import { toPublicEnvironment } from "@/lib/environments/public-environment";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// GET /_svc/environment — public settings an SDK needs
export const GET = clientRoute(getEnvironmentOperation, async ({ environment }) => toPublicEnvironment(environment));

export const OPTIONS = clientPreflight;
