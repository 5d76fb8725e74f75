import { getDb } from "@/db/client";
import { unsupportedMethods } from "@/lib/http/method-not-allowed";
import { serverRoute } from "@/lib/http/route";
import { rotateSigningKeyOperation } from "@/lib/tokens/operations";
import { rotateSigningKey } from "@/lib/tokens/rotate-signing-key";

// POST /api/server/v1/signing-keys/rotate — make a new signing key current
export const POST = serverRoute(rotateSigningKeyOperation, ({ environment, actor }) =>
  rotateSigningKey(getDb(), environment.id, actor),
);

// Any other method — 405 problem+json with Allow
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = unsupportedMethods({ POST });
