import { getLegalOperation } from "@/lib/auth/operations";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";

// GET /_svc/legal — whether consent is required, and the documents
export const GET = clientRoute(getLegalOperation, async ({ environment }) => ({ ...environment.settings.legal }));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
