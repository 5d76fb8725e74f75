import { desc, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { outboxEmails } from "@/db/schema";

export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  template: string;
  locale: string;
  createdAt: Date;
}

export const MAILBOX_LIMIT = 50;

/**
 * Outbox messages, newest first, optionally for one recipient (case-insensitive):
 * the development mailbox's page and JSON route, which import no db/, so this reads
 * through the process's database itself; nothing composes it into a transaction.
 */
export async function listMailboxMessages(options: { to?: string } = {}): Promise<MailboxMessage[]> {
  const to = options.to?.trim().toLowerCase();
  return getDb()
    .select({
      id: outboxEmails.id,
      to: outboxEmails.toAddress,
      subject: outboxEmails.subject,
      text: outboxEmails.text,
      html: outboxEmails.html,
      template: outboxEmails.template,
      locale: outboxEmails.locale,
      createdAt: outboxEmails.createdAt,
    })
    .from(outboxEmails)
    .where(to ? sql`lower(${outboxEmails.toAddress}) = ${to}` : undefined)
    .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
    .limit(MAILBOX_LIMIT);
}
