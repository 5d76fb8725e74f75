import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { publishedJwks } from "@/lib/tokens/jwks";
import { getJwksOperation } from "@/lib/tokens/operations";

// GET /_svc/.well-known/jwks.json — the environment's public signing keys
export const GET = clientRoute(getJwksOperation, ({ environment }) => publishedJwks(getDb(), environment.id));

export const OPTIONS = clientPreflight;

// Any other method — 405 problem+json with Allow
export const { POST, PUT, PATCH, DELETE } = unsupportedMethods({ GET, OPTIONS });
