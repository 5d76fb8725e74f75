import { randomToken } from "../crypto/tokens";

const INCOMING_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** Ids already given out, so every caller that asks about one request gets the id its response and events carry. */
const assigned = new WeakMap<Request, string>();

/** Reuses a well-formed `X-Request-Id` from a proxy, otherwise mints one; the same id for the same request. */
export function requestIdFor(request: Request): string {
  const known = assigned.get(request);
  if (known) return known;
  const incoming = request.headers.get("x-request-id");
  const id = incoming && INCOMING_ID.test(incoming) ? incoming : `req_${randomToken(12)}`;
  assigned.set(request, id);
  return id;
}
