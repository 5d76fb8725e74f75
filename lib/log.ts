/**
 * Logs an unexpected failure with its request id. Only the error's class, Postgres
 * code and message go out: query parameters (emails, hashes) never reach the log.
 */
export function logUnexpectedError(requestId: string, error: unknown): void {
  const cause = (error as { cause?: unknown })?.cause;
  const root = (cause ?? error) as { name?: string; code?: string; message?: string; stack?: string };
  console.error(
    JSON.stringify({
      level: "error",
      requestId,
      error: root?.name ?? typeof root,
      pgCode: root?.code,
      message: root?.message,
      stack: root?.stack?.split("\n").slice(1, 6).join("\n"),
    }),
  );
}
