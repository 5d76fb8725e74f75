/** True when a query failed on a unique constraint (SQLSTATE 23505), however the driver wrapped it. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: string; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return true;
  }
  return false;
}

/** The constraint (or unique index) a unique violation hit, as postgres.js (`constraint_name`) or PGlite (`constraint`) reports it. */
export function violatedConstraint(error: unknown): string | null {
  for (let current = error as { code?: string; cause?: unknown; constraint_name?: string; constraint?: string } | undefined; current; current = current.cause as typeof current) {
    if (current.code === "23505") return current.constraint_name ?? current.constraint ?? null;
  }
  return null;
}
