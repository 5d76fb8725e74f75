import { AppError, problemBody, type ErrorCode } from "../errors";

export { PROBLEM_TYPE_BASE } from "../errors";

/** Renders an AppError as RFC 9457 problem+json with the machine code twice (CONTRACT §4). */
export function problemResponse(error: AppError, requestId: string): Response {
  const body = problemBody(error, requestId);
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      "content-type": "application/problem+json",
      "cache-control": "no-store",
      "x-request-id": requestId,
      ...error.headers,
    },
  });
}

export function problemFor(code: ErrorCode, detail: string, requestId: string): Response {
  return problemResponse(new AppError(code, detail), requestId);
}
