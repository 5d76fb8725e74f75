import { AppError, ERRORS, type ErrorCode } from "../errors";

export const PROBLEM_TYPE_BASE = "https://gatehouse.dev/errors/";

/** Renders an AppError as RFC 9457 problem+json with the machine code twice (CONTRACT §4). */
export function problemResponse(error: AppError, requestId: string): Response {
  const body = {
    type: `${PROBLEM_TYPE_BASE}${error.code}`,
    title: ERRORS[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    requestId,
    properties: {
      ...error.properties,
      code: error.code,
      ...(error.fieldErrors ? { errors: error.fieldErrors } : {}),
    },
  };
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
