import { sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import { events } from "@/db/schema";
import { eventCatalogue, type EventData, type EventType } from "./event-catalogue";

/** The credential that really acted when a user is impersonated (the user stays the actor). */
export interface OnBehalfOf {
  type: "operator" | "secret_key";
  id: string;
}

/** A credential acting through a request: a signed-in user, a secret key, a dashboard operator. */
export interface RequestActor {
  type: "user" | "secret_key" | "operator";
  id: string;
  /** Every change a request makes carries its id, so an event leads back to the request's log lines. */
  requestId: string;
  onBehalfOf?: OnBehalfOf;
}

/**
 * Gatehouse itself: a job, whose id (`job_…`) stands where a request id would, or
 * the command line and boot, which have neither (null, said explicitly).
 */
export interface SystemActor {
  type: "system";
  id: null;
  requestId: string | null;
}

/** Who did something: the credential behind a request, or the system itself. */
export type Actor = RequestActor | SystemActor;

export const SYSTEM_ACTOR: SystemActor = { type: "system", id: null, requestId: null };

/** The actor of the work a job does. */
export function jobActor(jobId: string): SystemActor {
  return { type: "system", id: null, requestId: `job_${jobId}` };
}

type Catalogue = typeof eventCatalogue;

/** Events with a subject must name it; environment-wide events have none. */
type SubjectField<T extends EventType> = Catalogue[T]["subject"] extends null ? { subjectId?: null } : { subjectId: string };

/** An empty payload may be left out. */
type DataField<T extends EventType> = Record<string, never> extends EventData<T> ? { data?: EventData<T> } : { data: EventData<T> };

/** One event as a caller writes it: the type picks the payload shape and whether a subject is required. */
export type NewEvent = {
  [T in EventType]: { environmentId: string; type: T; actor: Actor } & SubjectField<T> & DataField<T>;
}[EventType];

type EventRow = typeof events.$inferInsert;

/** Checks the payload against the catalogue (a spread can smuggle keys past the compiler) and flattens the actor. */
function toRow(event: NewEvent): EventRow {
  const data = eventCatalogue[event.type].data.parse(event.data ?? {});
  const onBehalfOf = event.actor.type === "system" ? undefined : event.actor.onBehalfOf;
  return {
    environmentId: event.environmentId,
    type: event.type,
    actorType: event.actor.type,
    actorId: event.actor.id,
    onBehalfOfType: onBehalfOf?.type ?? null,
    onBehalfOfId: onBehalfOf?.id ?? null,
    subjectId: event.subjectId ?? null,
    data,
    requestId: event.actor.requestId,
  };
}

/**
 * Appends one event. Call it with the transaction of the change it records, so the
 * change and its record (and, later, its webhook deliveries) commit or vanish together.
 */
export async function recordEvent(db: Database, event: NewEvent): Promise<void> {
  await recordEvents(db, [event]);
}

/** Appends several events in one statement (one per revoked session, say). */
export async function recordEvents(db: Database, list: NewEvent[]): Promise<void> {
  if (list.length === 0) return;
  await db.insert(events).values(list.map(toRow));
}

/**
 * The same row as an `insert` for a data-modifying CTE, for the hot paths that
 * write their change and its event in one statement (sign-in, user creation);
 * `onlyIf` (a condition on the statement's other CTEs) writes it only with the change.
 */
export function eventInsert(event: NewEvent, onlyIf?: SQL): SQL {
  const row = toRow(event);
  return sql`insert into events (environment_id, type, actor_type, actor_id, on_behalf_of_type, on_behalf_of_id, subject_id, data, request_id)
    select ${row.environmentId}::uuid, ${row.type}, ${row.actorType}, ${row.actorId}, ${row.onBehalfOfType}, ${row.onBehalfOfId},
           ${row.subjectId}::uuid, ${JSON.stringify(row.data)}::jsonb, ${row.requestId}
    ${onlyIf ? sql`where ${onlyIf}` : sql``}`;
}
