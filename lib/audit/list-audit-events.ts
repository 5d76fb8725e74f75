import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import { events } from "@/db/schema";
import { AppError } from "../errors";
import { eventCatalogue, type EventType } from "./event-catalogue";
import type { AuditEvent, AuditEventsExportFilter, AuditEventsFilter } from "./schemas";

type EventRow = typeof events.$inferSelect;
type Subject = (typeof eventCatalogue)[EventType]["subject"];

/** The catalogued types whose subject_id names a `subject`: filters on it stay exact. */
function typesAbout(subject: NonNullable<Subject>): EventType[] {
  return (Object.keys(eventCatalogue) as EventType[]).filter((type) => eventCatalogue[type].subject === subject);
}
const USER_EVENT_TYPES = typesAbout("user");
const ORGANIZATION_EVENT_TYPES = typesAbout("organization");

/** The filters without paging: what the list and the export share. */
type AuditEventsQuery = Omit<AuditEventsFilter, "limit" | "cursor">;

/** Where a page starts: after an event named by its id (the API's cursor), or below a seq (the export's walk). */
type Below = { id: string } | { seq: number } | undefined;

/**
 * The filters as SQL. `userId` and `organizationId` read the subject index
 * (events_subject_idx) and keep only types whose subject is of that kind (user and
 * organization ids are both uuids, never reused across kinds, but the type says so
 * for certain). A user's organization memberships are found through the
 * organization: the member is in `data.userId`, not the subject, and no index
 * covers the payload. `type` and `actor` read (environment, type, seq) and
 * (environment, actor_id, seq) (+ the on_behalf_of partial index), so a type or an
 * actor with no events is an empty index range, not a walk of the whole log.
 */
function filterConditions(environmentId: string, filter: AuditEventsQuery, below: Below): (SQL | undefined)[] {
  const { type, actor, userId, organizationId, after, before } = filter;
  return [
    eq(events.environmentId, environmentId),
    type === undefined ? undefined : type.endsWith(".*") ? inArray(events.type, typesIn(type.slice(0, -2))) : eq(events.type, type),
    actor === undefined ? undefined : or(eq(events.actorId, actor), eq(events.onBehalfOfId, actor)),
    userId === undefined ? undefined : and(eq(events.subjectId, userId), inArray(events.type, USER_EVENT_TYPES)),
    organizationId === undefined ? undefined : and(eq(events.subjectId, organizationId), inArray(events.type, ORGANIZATION_EVENT_TYPES)),
    after === undefined ? undefined : gte(events.createdAt, new Date(after)),
    before === undefined ? undefined : lt(events.createdAt, new Date(before)),
    // The cursor is the last item's id; its seq is read in SQL (the primary key), and
    // an id from another environment finds no seq, so no rows (then 400 below).
    below === undefined
      ? undefined
      : "seq" in below
        ? lt(events.seq, below.seq)
        : sql`${events.seq} < (select c.seq from events c where c.id = ${below.id} and c.environment_id = ${environmentId})`,
  ];
}

/**
 * A namespace filter (`organization.*`) as the list of its catalogued types, so it
 * reads the (environment, type, seq) index; a LIKE prefix could not under a
 * non-C collation. The writer accepts only catalogued types, so none is missed.
 */
function typesIn(namespace: string): EventType[] {
  return (Object.keys(eventCatalogue) as EventType[]).filter((type) => type.startsWith(`${namespace}.`));
}

/**
 * A time window holding fewer events than this is read through the
 * (environment, created_at) index and sorted (at most this many rows); a larger one
 * is dense enough to walk the seq index. Counting up to it costs one index range.
 */
const NARROW_WINDOW_EVENTS = 5_000;

async function isNarrowWindow(db: Database, environmentId: string, { after, before }: AuditEventsQuery): Promise<boolean> {
  if (after === undefined && before === undefined) return false;
  const window = and(
    eq(events.environmentId, environmentId),
    after === undefined ? undefined : gte(events.createdAt, new Date(after)),
    before === undefined ? undefined : lt(events.createdAt, new Date(before)),
  );
  const inWindow = db.select({ one: sql`1` }).from(events).where(window).limit(NARROW_WINDOW_EVENTS).as("in_window");
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(inWindow);
  return (row?.n ?? 0) < NARROW_WINDOW_EVENTS;
}

/**
 * Up to `count` events matching the filters, newest first (by seq), below `below`.
 * Unfiltered pages walk the (environment, seq) index backwards and stop after
 * `count` rows, on page 1 as on page 50,000. A narrow time window (an old day of a
 * year's log) would make that walk pass every newer event first, so it is read
 * through the (environment, created_at) index instead: ordering by `seq + 0` keeps
 * the planner off the seq index, and the window's few rows are sorted.
 */
async function selectEvents(db: Database, environmentId: string, filter: AuditEventsQuery, below: Below, count: number): Promise<EventRow[]> {
  const order = (await isNarrowWindow(db, environmentId, filter)) ? desc(sql`${events.seq} + 0`) : desc(events.seq);
  return db
    .select()
    .from(events)
    .where(and(...filterConditions(environmentId, filter, below)))
    .orderBy(order)
    .limit(count);
}

/**
 * One page of the environment's audit events, newest first, by keyset on `seq`
 * (the order events were written; created_at can tie and does not follow commit
 * order).
 *
 * The one home of the audit log's query: the export (exportAuditEvents) walks the
 * same function in batches, and retention (lib/audit/retention.ts) deletes by age.
 */
export async function listAuditEvents(db: Database, environmentId: string, filter: AuditEventsFilter) {
  const { limit, cursor, ...query } = filter;
  const rows = await selectEvents(db, environmentId, query, cursor === undefined ? undefined : { id: cursor }, limit + 1);
  if (rows.length === 0 && cursor) await assertCursorExists(db, environmentId, cursor);
  const hasMore = rows.length > limit;
  const items = rows.slice(0, limit).map(toAuditEvent);
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null, hasMore };
}

/** Events per statement of an export: memory holds one batch, whatever the log's size. */
export const EXPORT_BATCH_EVENTS = 1_000;

/**
 * Every event matching the filters, newest first (the list's order, so an export is
 * the concatenation of the list's pages), in batches of EXPORT_BATCH_EVENTS. After
 * the first batch it walks by seq, not by id, so an event deleted meanwhile
 * (retention) cannot break the walk. Events written after the export started are
 * newer than its first batch and so not in it.
 */
export async function* exportAuditEvents(db: Database, environmentId: string, filter: AuditEventsExportFilter): AsyncGenerator<AuditEvent[]> {
  const { cursor, ...query } = filter;
  let below: Below = cursor === undefined ? undefined : { id: cursor };
  for (;;) {
    const rows = await selectEvents(db, environmentId, query, below, EXPORT_BATCH_EVENTS);
    if (rows.length === 0 && cursor !== undefined && below !== undefined && "id" in below) await assertCursorExists(db, environmentId, cursor);
    if (rows.length > 0) yield rows.map(toAuditEvent);
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_BATCH_EVENTS) return;
    below = { seq: last.seq };
  }
}

async function assertCursorExists(db: Database, environmentId: string, cursor: string): Promise<void> {
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, cursor), eq(events.environmentId, environmentId)))
    .limit(1);
  if (!row) throw new AppError("invalid_request", "cursor: is not a nextCursor from this environment.");
}

/**
 * An event row as the audit log shows it: the subject under the name of its kind
 * (from the catalogue; a type no longer catalogued shows none), the impersonator
 * when there was one. The payload is shown as stored: the catalogue admits only
 * ids, counts and names into it, never a secret, so every reader may see it.
 */
export function toAuditEvent(row: EventRow): AuditEvent {
  const subject: Subject | undefined = row.type in eventCatalogue ? eventCatalogue[row.type as EventType].subject : undefined;
  const subjectId = row.subjectId ?? undefined;
  return {
    id: row.id,
    type: row.type,
    actorType: row.actorType,
    actorId: row.actorId,
    ...(row.onBehalfOfType && row.onBehalfOfId ? { onBehalfOf: { type: row.onBehalfOfType, id: row.onBehalfOfId } } : {}),
    ...(subjectId && subject === "user" ? { userId: subjectId } : {}),
    ...(subjectId && subject === "organization" ? { organizationId: subjectId } : {}),
    ...(subjectId && subject === "jwt_template" ? { jwtTemplateId: subjectId } : {}),
    requestId: row.requestId,
    data: row.data,
    createdAt: row.createdAt.toISOString(),
  };
}
