import { randomToken } from "../crypto/tokens";

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Reuses a well-formed `X-Request-Id` from a proxy, otherwise mints one. */
export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && INCOMING_ID.test(incoming) ? incoming : `req_${randomToken(12)}`;
}
