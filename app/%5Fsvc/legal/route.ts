import { getLegalOperation } from "@/lib/auth/operations";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// GET /_svc/legal — whether consent is required, and the documents
export const GET = clientRoute(getLegalOperation, async ({ environment }) => ({ ...environment.settings.legal }));

export const OPTIONS = clientPreflight;
