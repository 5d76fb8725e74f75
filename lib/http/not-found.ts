import { AppError } from "../errors";
import { problemResponse } from "./problem";
import { requestIdFor } from "./request-id";

/** Unknown paths under an API prefix answer problem+json, not the HTML 404 page. */
export function apiNotFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return problemResponse(
    new AppError("resource_not_found", `No operation at ${request.method} ${pathname}; see /api/reference.`),
    requestIdFor(request),
  );
}

/** Every method of a catch-all route, all answering 404 problem+json (an unknown path has no methods to allow). */
export const notFoundHandlers = {
  GET: apiNotFound,
  POST: apiNotFound,
  PUT: apiNotFound,
  PATCH: apiNotFound,
  DELETE: apiNotFound,
  OPTIONS: apiNotFound,
};
