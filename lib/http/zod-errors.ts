import type { z } from "zod";
import { AppError, type FieldError } from "../errors";

/** A zod failure as one 400 whose detail names the first problem and lists them all. */
export function zodToAppError(error: z.ZodError, location: "body" | "query" | "path"): AppError {
  const fieldErrors: FieldError[] = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join(".") : location,
    code: issue.code,
    message: issue.message,
  }));
  const first = fieldErrors[0];
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : "";
  const detail = first ? `${first.field}: ${first.message}${more}` : `Invalid ${location}.`;
  return new AppError("invalid_request", detail, { fieldErrors });
}
