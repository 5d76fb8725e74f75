import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, sessionRoute } from "@/lib/http/route";
import { mintFromTemplate } from "@/lib/tokens/mint-from-template";
import { mintTemplateTokenOperation } from "@/lib/tokens/operations";

// POST /_svc/auth/token/{templateName} — mint a token from a JWT template
export const POST = sessionRoute(mintTemplateTokenOperation, ({ environment, session, params, context }) =>
  mintFromTemplate(getDb(), environment, session, params.templateName, context),
);

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE } = unsupportedMethods({ POST, OPTIONS });
