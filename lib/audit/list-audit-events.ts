import { and, desc, eq, gte, inArray, like, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import { events } from "@/db/schema";
import { AppError } from "../errors";
import { eventCatalogue, type EventType } from "./event-catalogue";
import type { AuditEvent, AuditEventsFilter } from "./schemas";

type EventRow = typeof events.$inferSelect;
type Subject = (typeof eventCatalogue)[EventType]["subject"];

/** The catalogued types whose subject_id names a `subject`: filters on it stay exact. */
function typesAbout(subject: NonNullable<Subject>): EventType[] {
  return (Object.keys(eventCatalogue) as EventType[]).filter((type) => eventCatalogue[type].subject === subject);
}
const USER_EVENT_TYPES = typesAbout("user");
const ORGANIZATION_EVENT_TYPES = typesAbout("organization");

/**
 * The filters as SQL. `userId` and `organizationId` read the subject index
 * (events_subject_idx) and keep only types whose subject is of that kind (user and
 * organization ids are both uuids, never reused across kinds, but the type says so
 * for certain). A user's organization memberships are found through the
 * organization: the member is in `data.userId`, not the subject, and no index
 * covers the payload.
 */
function filterConditions(environmentId: string, filter: AuditEventsFilter): (SQL | undefined)[] {
  const { type, actor, userId, organizationId, after, before, cursor } = filter;
  return [
    eq(events.environmentId, environmentId),
    type === undefined ? undefined : type.endsWith(".*") ? like(events.type, `${type.slice(0, -1).replace(/_/g, "\\_")}%`) : eq(events.type, type),
    actor === undefined ? undefined : or(eq(events.actorId, actor), eq(events.onBehalfOfId, actor)),
    userId === undefined ? undefined : and(eq(events.subjectId, userId), inArray(events.type, USER_EVENT_TYPES)),
    organizationId === undefined ? undefined : and(eq(events.subjectId, organizationId), inArray(events.type, ORGANIZATION_EVENT_TYPES)),
    after === undefined ? undefined : gte(events.createdAt, new Date(after)),
    before === undefined ? undefined : lt(events.createdAt, new Date(before)),
    // The cursor is the last item's id; its seq is read in SQL (the primary key), and
    // an id from another environment finds no seq, so no rows (then 400 below).
    cursor === undefined
      ? undefined
      : sql`${events.seq} < (select c.seq from events c where c.id = ${cursor} and c.environment_id = ${environmentId})`,
  ];
}

/**
 * One page of the environment's audit events, newest first, by keyset on `seq`
 * (the order events were written; created_at can tie and does not follow commit
 * order). Unfiltered and time-windowed pages walk the (environment, seq) index
 * backwards and stop after `limit + 1` rows, on page 1 as on page 50,000; user and
 * organization filters read the subject index.
 *
 * The one home of the audit log's query: retention and export (issue 18) grow here.
 */
export async function listAuditEvents(db: Database, environmentId: string, filter: AuditEventsFilter) {
  const rows = await db
    .select()
    .from(events)
    .where(and(...filterConditions(environmentId, filter)))
    .orderBy(desc(events.seq))
    .limit(filter.limit + 1);
  if (rows.length === 0 && filter.cursor) await assertCursorExists(db, environmentId, filter.cursor);
  const hasMore = rows.length > filter.limit;
  const items = rows.slice(0, filter.limit).map(toAuditEvent);
  return { items, nextCursor: hasMore ? (items.at(-1)?.id ?? null) : null, hasMore };
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
