/**
 * The one registry of errors Gatehouse returns (CONTRACT §4). Domain code throws
 * `new AppError(code, detail)`; only `lib/http` turns it into problem+json.
 */
export const ERRORS = {
  invalid_request: { status: 400, title: "Invalid request" },
  password_too_weak: { status: 400, title: "Password too weak" },
  metadata_too_large: { status: 400, title: "Metadata too large" },
  invalid_code: { status: 400, title: "Invalid or expired code" },
  oauth_state_invalid: { status: 400, title: "OAuth state invalid" },
  oauth_failed: { status: 400, title: "OAuth sign-in failed" },
  unauthorized: { status: 401, title: "Unauthorized" },
  invalid_credentials: { status: 401, title: "Invalid credentials" },
  environment_not_found: { status: 401, title: "Environment not found" },
  user_banned: { status: 403, title: "User banned" },
  forbidden: { status: 403, title: "Forbidden" },
  invitation_wrong_account: { status: 403, title: "Invitation for another address" },
  environment_mismatch: { status: 403, title: "Environment mismatch" },
  origin_not_allowed: { status: 403, title: "Origin not allowed" },
  reverification_required: { status: 403, title: "Reverification required" },
  session_pending: { status: 403, title: "Session pending" },
  impersonation_forbidden: { status: 403, title: "Not allowed while impersonating" },
  mfa_required: { status: 403, title: "Two-step verification required" },
  operator_second_factor_required: { status: 403, title: "Operator second factor required" },
  resource_not_found: { status: 404, title: "Resource not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  identifier_exists: { status: 409, title: "Identifier already exists" },
  invitation_already_accepted: { status: 409, title: "Invitation already accepted" },
  identity_already_linked: { status: 409, title: "Identity already linked" },
  last_sign_in_method: { status: 409, title: "Last sign-in method" },
  account_exists: { status: 409, title: "Account exists" },
  oauth_provider_exists: { status: 409, title: "OAuth provider already exists" },
  oauth_provider_in_use: { status: 409, title: "OAuth provider in use" },
  mfa_already_enabled: { status: 409, title: "Two-step verification already on" },
  mfa_not_enabled: { status: 409, title: "Two-step verification not on" },
  already_member: { status: 409, title: "Already a member" },
  last_owner: { status: 409, title: "Last owner" },
  organization_limit_reached: { status: 409, title: "Organization limit reached" },
  role_in_use: { status: 409, title: "Role in use" },
  last_secret_key: { status: 409, title: "Last secret key" },
  invitation_revoked: { status: 410, title: "Invitation revoked" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  legal_consent_required: { status: 422, title: "Legal consent required" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal server error" },
  email_unavailable: { status: 503, title: "Email unavailable" },
  service_unavailable: { status: 503, title: "Service unavailable" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  field: string;
  code: string;
  /** English, for developers reading the problem body. */
  message: string;
  /**
   * The facts behind the message (e.g. `{reason: "too_short", min: 8}`), so a form
   * can word it in the reader's language without parsing the English.
   */
  params?: Record<string, string | number>;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fieldErrors?: FieldError[];
  readonly headers?: Record<string, string>;
  /** Machine-readable facts for clients, rendered into problem+json `properties` (e.g. `currentGate`). */
  readonly properties?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    detail: string,
    extra: { fieldErrors?: FieldError[]; headers?: Record<string, string>; properties?: Record<string, unknown> } = {},
  ) {
    super(detail);
    this.name = "AppError";
    this.code = code;
    this.status = ERRORS[code].status;
    this.fieldErrors = extra.fieldErrors;
    this.headers = extra.headers;
    this.properties = extra.properties;
  }
}

/** `throw invalidField("email", "is already taken")`: a 400 naming the offending field. */
export function invalidField(field: string, message: string, code: ErrorCode = "invalid_request"): AppError {
  return new AppError(code, `${field}: ${message}`, { fieldErrors: [{ field, code, message }] });
}

export const PROBLEM_TYPE_BASE = "https://gatehouse.dev/errors/";

/**
 * An AppError as an RFC 9457 problem object (CONTRACT §4), the machine code twice:
 * the body of every error response, and the `error` of a line of a bulk answer.
 */
export function problemBody(error: AppError, requestId: string) {
  return {
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
}
