import type { z } from "zod";
import { AppError, type FieldError } from "../errors";

/** A zod failure as one 400 whose detail names the first problem and lists them all. */
export function zodToAppError(error: z.ZodError, location: "body" | "query" | "path"): AppError {
  const fieldErrors: FieldError[] = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join(".") : location,
    code: issue.code,
    message: issue.message,
    // Bounds of too_small / too_big, for forms that word the message themselves.
    ...("minimum" in issue || "maximum" in issue
      ? { params: { ...("minimum" in issue ? { min: Number(issue.minimum) } : {}), ...("maximum" in issue ? { max: Number(issue.maximum) } : {}) } }
      : {}),
  }));
  const first = fieldErrors[0];
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : "";
  const detail = first ? `${first.field}: ${first.message}${more}` : `Invalid ${location}.`;
  return new AppError("invalid_request", detail, { fieldErrors });
}
