import type { AuditEvent } from "@/lib/audit/schemas";
import type { DashboardCopy } from "@/lib/dashboard/i18n/messages";
import styles from "./event-list.module.css";

interface EventListProps {
  /** The items of an audit-events page (GET /api/server/v1/audit-events), newest first. */
  events: AuditEvent[];
  copy: DashboardCopy;
  /** Names the list for assistive technology (e.g. "Latest events", "Alice's recent events"). */
  label?: string;
  /** Shown when there are no events; the copy's generic "No events yet" otherwise. */
  emptyText?: string;
}

/**
 * Audit events as a list: what happened (a readable label, the raw type beside it
 * for anything the copy does not name), who did it, whom it was about, and when
 * (a <time> in UTC, the log's own clock). A server component of plain markup: the
 * overview shows the latest events, a user's page the user's.
 */
export function EventList({ events, copy, label, emptyText }: EventListProps) {
  const { t } = copy;
  if (events.length === 0) {
    return (
      <p className={styles.empty} data-testid="event-list-empty">
        {emptyText ?? t.events.empty}
      </p>
    );
  }
  return (
    <ol className={styles.list} aria-label={label ?? t.events.listLabel} data-testid="event-list">
      {events.map((event) => (
        <li key={event.id} className={styles.item}>
          <div className={styles.what}>
            <span className={styles.type}>{t.events.types[event.type] ?? event.type}</span>
            <code className={styles.rawType}>{event.type}</code>
          </div>
          <dl className={styles.facts}>
            <div>
              <dt>{t.events.actor}</dt>
              <dd>{actorText(event, copy)}</dd>
            </div>
            {subjectText(event, copy) ? (
              <div>
                <dt>{t.events.subject}</dt>
                <dd>{subjectText(event, copy)}</dd>
              </div>
            ) : null}
          </dl>
          <time className={styles.time} dateTime={event.createdAt}>
            {formatInstant(event.createdAt, copy.locale)}
          </time>
        </li>
      ))}
    </ol>
  );
}

function actorText(event: AuditEvent, { t }: DashboardCopy): string {
  const who = event.actorId ? `${t.events.actorTypes[event.actorType]} ${event.actorId}` : t.events.actorTypes[event.actorType];
  if (!event.onBehalfOf) return who;
  const behalf = `${t.events.actorTypes[event.onBehalfOf.type]} ${event.onBehalfOf.id}`;
  return `${who} (${t.events.onBehalfOf.replace("{actor}", behalf)})`;
}

function subjectText(event: AuditEvent, { t }: DashboardCopy): string | null {
  if (event.userId) return `${t.events.subjects.user} ${event.userId}`;
  if (event.organizationId) return `${t.events.subjects.organization} ${event.organizationId}`;
  if (event.jwtTemplateId) return `${t.events.subjects.jwtTemplate} ${event.jwtTemplateId}`;
  return null;
}

/** "31 Jan 2025, 14:05 UTC": the server renders it, so no browser's zone is guessed. */
function formatInstant(iso: string, locale: DashboardCopy["locale"]): string {
  const formatted = new Intl.DateTimeFormat(locale === "da" ? "da-DK" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(new Date(iso));
  return `${formatted} UTC`;
}
