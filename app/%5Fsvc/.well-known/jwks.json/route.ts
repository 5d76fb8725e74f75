import { getDb } from "@/db/client";
import { clientPreflight, clientRoute } from "@/lib/http/route";
import { publishedJwks } from "@/lib/tokens/jwks";
import { getJwksOperation } from "@/lib/tokens/operations";

// GET /_svc/.well-known/jwks.json — the environment's public signing keys
export const GET = clientRoute(getJwksOperation, ({ environment }) => publishedJwks(getDb(), environment.id));

export const OPTIONS = clientPreflight;
