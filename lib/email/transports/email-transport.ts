import type { Database } from "@/db/client";
import type { EmailTemplateName, Locale } from "../types";

/** A rendered message ready to hand to a transport. */
export interface Envelope {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  template: EmailTemplateName;
  locale: Locale;
  environmentId: string;
}

export interface EmailTransport {
  readonly name: "outbox" | "smtp" | "resend";
  /** Resolves once the message is accepted; rejects on any failure. `db` is the caller's handle (maybe a transaction). */
  send(db: Database, envelope: Envelope): Promise<void>;
  /** Releases pooled connections when the transport is replaced. */
  close?(): void;
}
