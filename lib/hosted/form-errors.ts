import { z } from "zod";
import { AppError, type ErrorCode, type FieldError } from "../errors";
import { logUnexpectedError } from "../log";
import { zodToAppError } from "../http/zod-errors";
import { format, type Messages } from "./i18n/messages";
import type { FormState } from "./form-state";

export interface ErrorOptions {
  /** The form's input names: errors for other fields become the form-level message. */
  fields: readonly string[];
  values?: Record<string, string>;
  /** This form's wording for a code, e.g. what a bare `invalid_request` means here (the lib's detail is English and technical). */
  messages?: Partial<Record<ErrorCode, string>>;
  /** This form's wording for any validation error of a field, e.g. what a malformed `code` means here. */
  fieldMessages?: Record<string, string>;
  /** Codes that belong next to one field, e.g. `invalid_code` → `code`. */
  codeFields?: Partial<Record<ErrorCode, string>>;
  requestId?: string;
}

function passwordMessage(error: FieldError, t: Messages): string {
  const params = error.params ?? {};
  if (params.reason === "too_short") return format(t.errors.passwordTooShort, { min: String(params.min) });
  if (params.reason === "too_long") return format(t.errors.passwordTooLong, { max: String(params.max) });
  return t.errors.passwordCommon;
}

/** A localized message for one field error from a lib function or a zod schema. */
function fieldMessage(error: FieldError, values: Record<string, string>, t: Messages): string {
  if (error.code === "password_too_weak") return passwordMessage(error, t);
  if (error.code === "mismatch") return t.errors.confirmationMismatch;
  if (error.code === "captcha_failed") return t.errors.captchaFailed;
  if (error.field === "captchaToken") return t.errors.captchaRequired;
  if (error.field === "code") return t.errors.codeFormat;
  const empty = (values[error.field] ?? "").trim() === "";
  if (empty && (error.code === "too_small" || error.code === "invalid_type" || error.code === "required")) return t.errors.required;
  if (/email|confirmation/i.test(error.field)) return empty ? t.errors.required : t.errors.emailInvalid;
  return t.errors.invalidField;
}

function codeMessage(error: AppError, t: Messages, options: ErrorOptions): string {
  const own = options.messages?.[error.code];
  if (own) return own;
  if (error.code === "rate_limited") return format(t.errors.rate_limited, { seconds: error.headers?.["retry-after"] ?? "60" });
  const known: Record<string, string> = t.errors;
  return known[error.code] ?? t.errors.generic;
}

/**
 * Turns what an action caught into the state its form shows: field errors next to
 * their fields, anything else as one form-level message. Unexpected errors are
 * logged with a request id and shown as a generic message; their text never
 * reaches the page.
 */
export function errorState(error: unknown, t: Messages, options: ErrorOptions): FormState {
  const values = options.values ?? {};
  const state: FormState = { status: "error", message: null, fieldErrors: {}, values, nonce: Date.now() };
  const appError = error instanceof z.ZodError ? zodToAppError(error, "body") : error;
  if (!(appError instanceof AppError)) {
    logUnexpectedError(options.requestId ?? "hosted", error);
    return { ...state, message: t.errors.generic };
  }
  for (const fieldError of appError.fieldErrors ?? []) {
    const message = options.fieldMessages?.[fieldError.field] ?? fieldMessage(fieldError, values, t);
    if (options.fields.includes(fieldError.field)) state.fieldErrors[fieldError.field] ??= message;
    else state.message ??= message;
  }
  if (Object.keys(state.fieldErrors).length === 0 && !state.message) {
    const field = options.codeFields?.[appError.code];
    if (field) state.fieldErrors[field] = codeMessage(appError, t, options);
    else state.message = codeMessage(appError, t, options);
  }
  return state;
}

/** A form-level error of the form's own making (e.g. "tick the box"), shaped like the others. */
export function fieldErrorState(field: string, message: string, values: Record<string, string> = {}): FormState {
  return { status: "error", message: null, fieldErrors: { [field]: message }, values, nonce: Date.now() };
}
