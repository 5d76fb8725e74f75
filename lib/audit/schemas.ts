import { z } from "zod";
import { pageQuery, pageSchema } from "../users/schemas";
import { eventCatalogue, type EventType } from "./event-catalogue";

const EVENT_TYPES = Object.keys(eventCatalogue) as EventType[];
/** `user`, `session`, `organization`, …: the part of each type before its first dot. */
const EVENT_NAMESPACES = [...new Set(EVENT_TYPES.map((type) => type.split(".")[0] as string))];

/**
 * ISO 8601 year 0000 is 1 BC, which Postgres cannot read in this form: refused here
 * (400) rather than failing in the query (500).
 */
const instant = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 date-time, e.g. 2025-01-31T12:00:00Z" })
  .refine((value) => new Date(value).getUTCFullYear() >= 1, "must be in year 0001 or later");

/**
 * A type filter: one catalogued type (`user.banned`), or a whole namespace
 * (`organization.*`). Unknown names are 400, so a typo never reads as "no events".
 */
const typeFilter = z
  .string()
  .refine(
    (value) => (EVENT_TYPES as string[]).includes(value) || (value.endsWith(".*") && EVENT_NAMESPACES.includes(value.slice(0, -2))),
    { error: `must be an event type (e.g. user.created) or a namespace (${EVENT_NAMESPACES.map((n) => `${n}.*`).join(", ")})` },
  );

/** The audit log's filters, shared by the list and the export (one query module reads them). */
const auditEventFilters = {
  actor: z
    .string()
    .min(1, "must not be empty")
    .max(128, "must be at most 128 characters")
    .optional()
    .meta({ description: "An actor id (user id, secret key id, operator id): events it did, or did acting as a user it impersonated." }),
  type: typeFilter.optional().meta({ description: "One event type (`user.banned`) or a namespace (`organization.*`)." }),
  userId: z.uuid("must be a UUID").optional().meta({ description: "Events about this user (their subject): account, email, session, factor and identity events." }),
  organizationId: z.uuid("must be a UUID").optional().meta({ description: "Events about this organization, membership and invitation events included." }),
  after: instant.optional().meta({ description: "Events created at or after this instant." }),
  before: instant.optional().meta({ description: "Events created before this instant (so `after`/`before` windows of adjacent days never overlap)." }),
};

const windowInOrder = [
  (query: { after?: string; before?: string }) => !query.after || !query.before || new Date(query.after) < new Date(query.before),
  { error: "must be later than after", path: ["before"] },
] satisfies [unknown, { error: string; path: string[] }];

export const auditEventsQuery = pageQuery.extend(auditEventFilters).refine(...windowInOrder);

export type AuditEventsFilter = z.output<typeof auditEventsQuery>;

/**
 * The export's query: the list's filters, and `cursor` to resume an interrupted
 * export after the last line received (its `id`). No `limit`: it runs to the end.
 */
export const auditEventsExportQuery = z
  .object({
    ...auditEventFilters,
    cursor: z.uuid("must be the id of an exported event").optional().meta({ description: "Resume after this event (the `id` of the last line received)." }),
  })
  .refine(...windowInOrder);

export type AuditEventsExportFilter = z.output<typeof auditEventsExportQuery>;

export const auditEventSchema = z
  .object({
    id: z.uuid(),
    type: z.string().meta({ description: "An event type of the catalogue, e.g. `user.created`, `session.revoked`." }),
    actorType: z.enum(["user", "secret_key", "operator", "system"]),
    actorId: z.string().nullable().meta({ description: "The user, secret key or operator id; null for the system (jobs, the command line)." }),
    onBehalfOf: z
      .object({ type: z.enum(["operator", "secret_key"]), id: z.string() })
      .optional()
      .meta({ description: "During an impersonation: the operator or secret key that really acted (the actor is the impersonated user)." }),
    userId: z.uuid().optional().meta({ description: "The user the event is about, when its subject is a user." }),
    organizationId: z.uuid().optional().meta({ description: "The organization the event is about, when its subject is an organization (a member's id is in `data.userId`)." }),
    jwtTemplateId: z.uuid().optional().meta({ description: "The JWT template the event is about." }),
    requestId: z.string().nullable().meta({ description: "The request (`req_…`) or job (`job_…`) that made the change; null for the command line and boot." }),
    ip: z.string().optional().meta({ description: "The client IP, where the event recorded one (none does yet)." }),
    data: z.record(z.string(), z.unknown()).meta({ description: "The event's payload: ids, counts and field names, never secrets or addresses." }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "AuditEvent" });

export type AuditEvent = z.output<typeof auditEventSchema>;

export const auditEventPageSchema = pageSchema(auditEventSchema, "AuditEventPage");

const windowCounts = z.object({
  today: z.int().min(0).meta({ description: "Since 00:00 UTC today." }),
  last7Days: z.int().min(0).meta({ description: "Since 00:00 UTC six days ago: today and the six days before it." }),
});

export const activitySummarySchema = z
  .object({
    users: z.int().min(0).meta({ description: "Active and banned users (as GET /users/count)." }),
    signUps: windowCounts.meta({ description: "New users: `user.signed_up` (self-service) and `user.created` (Server API, dashboard) events." }),
    signIns: windowCounts.meta({ description: "Sessions opened (`session.created`, a sign-up's first session included), impersonations excluded." }),
  })
  .meta({ id: "ActivitySummary" });

export type ActivitySummary = z.output<typeof activitySummarySchema>;
