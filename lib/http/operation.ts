import type { z } from "zod";
import type { ErrorCode } from "../errors";

/** Who may call an operation, and how the caller is resolved (CONTRACT §2). */
/**
 * Who may call an operation. `sensitiveSession` is a session whose user proved their
 * password recently (sign-in or /auth/reverify), for operations an unattended,
 * still-signed-in device must not perform.
 */
export type AuthLevel = "secretKey" | "publishableKey" | "session" | "sensitiveSession" | "none";

/**
 * One API operation described once: the route wrapper parses with these schemas
 * and the OpenAPI document is generated from the very same objects.
 */
export interface Operation<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
  A extends AuthLevel = AuthLevel,
> {
  operationId: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, e.g. `/api/server/v1/users/{userId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  params?: P;
  query?: Q;
  body?: B;
  response: { status: 200 | 201 | 204; description: string; schema?: R };
  /**
   * Cache-Control of a successful response; `no-store` when omitted, since most
   * answers are per-user. Public documents (JWKS, discovery) set a max-age so
   * verifiers do not fetch them on every token. Error responses stay `no-store`.
   */
  cacheControl?: string;
  /** Error codes this operation can answer with, documented in OpenAPI. */
  errors: ErrorCode[];
}

export type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export function defineOperation<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  A extends AuthLevel = AuthLevel,
>(operation: Operation<P, Q, B, R, A>): Operation<P, Q, B, R, A> {
  return operation;
}
