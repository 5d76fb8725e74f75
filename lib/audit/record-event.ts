import type { Database } from "@/db/client";
import { events } from "@/db/schema";

/** Who did something: the credential behind a request, or the system itself. */
export interface Actor {
  type: "secret_key" | "user" | "system" | "operator";
  id: string | null;
  requestId: string | null;
}

export const SYSTEM_ACTOR: Actor = { type: "system", id: null, requestId: null };

/**
 * Appends one audit row. Call it with the transaction of the change it records,
 * so the change and its record commit or vanish together.
 */
export async function recordEvent(
  db: Database,
  event: { environmentId: string; type: string; actor: Actor; subjectId?: string | null; data?: Record<string, unknown> },
): Promise<void> {
  await db.insert(events).values({
    environmentId: event.environmentId,
    type: event.type,
    actorType: event.actor.type,
    actorId: event.actor.id,
    subjectId: event.subjectId ?? null,
    data: event.data ?? {},
    requestId: event.actor.requestId,
  });
}
