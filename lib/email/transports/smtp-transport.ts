import nodemailer from "nodemailer";
import type { EmailTransport, Envelope } from "./email-transport";

/**
 * SMTP through nodemailer. The transporter is built once per URL and reused
 * (see select-transport). Timeouts are far below nodemailer's two-minute defaults:
 * a request that sends a code should fail fast with 503 rather than hang.
 * Options in the URL's query (e.g. `?pool=true`) are honoured by nodemailer.
 */
export function createSmtpTransport(smtpUrl: string): EmailTransport {
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    name: "smtp",
    async send(_db, envelope: Envelope) {
      await transporter.sendMail({
        from: envelope.from,
        to: envelope.to,
        subject: envelope.subject,
        text: envelope.text,
        html: envelope.html,
      });
    },
    close() {
      transporter.close();
    },
  };
}
