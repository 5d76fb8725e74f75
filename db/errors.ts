/** True when a query failed on a unique constraint (SQLSTATE 23505), however the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return true;
  }
  return false;
}
