import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { outboxEmails } from "@/db/schema";
import type { EmailTransport, Envelope } from "./email-transport";

/**
 * Development transport: stores the message for /dev/mailbox and prints it to the
 * server log. Insert runs on the caller's handle, so a rolled-back transaction
 * leaves no message behind for a code that never became valid.
 */
export function createOutboxTransport(): EmailTransport {
  return {
    name: "outbox",
    async send(db: Database, envelope: Envelope) {
      await db.insert(outboxEmails).values({
        environmentId: envelope.environmentId,
        toAddress: envelope.to,
        fromAddress: envelope.from,
        subject: envelope.subject,
        html: envelope.html,
        text: envelope.text,
        template: envelope.template,
        locale: envelope.locale,
        // now() is fixed for a whole transaction; the wall clock keeps two messages
        // sent in one transaction in order for "newest first".
        createdAt: sql`clock_timestamp()`,
      });
      // One line per message (JSON-escaped), so a developer without the mailbox page
      // can read codes from the log. This is the one log line that carries an address
      // and a code, which is why the outbox is a development transport.
      console.info(
        `[outbox] to=${JSON.stringify(envelope.to)} subject=${JSON.stringify(envelope.subject)} text=${JSON.stringify(envelope.text)}`,
      );
    },
  };
}
