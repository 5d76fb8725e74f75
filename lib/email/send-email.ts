import type { Database } from "@/db/client";
import { AppError } from "../errors";
import { emailFrom } from "./email-settings";
import { renderEmail } from "./render-email";
import { emailTransport } from "./transports/select-transport";
import type { EmailTemplateName, OutgoingEmail } from "./types";

/**
 * Renders and sends one message. Any transport failure (or missing configuration)
 * is logged without addresses, codes or keys and thrown as `email_unavailable`
 * (503), so the caller's transaction rolls back and the user can simply retry.
 * Pass the transaction handle as `db`: the outbox transport writes through it.
 */
export async function sendEmail<T extends EmailTemplateName>(db: Database, message: OutgoingEmail<T>): Promise<void> {
  const rendered = await renderEmail(message);
  let transportName = "unconfigured";
  try {
    const transport = emailTransport();
    transportName = transport.name;
    await transport.send(db, {
      from: emailFrom(),
      to: message.to,
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      template: message.template,
      locale: message.locale,
      environmentId: message.environment.id,
    });
  } catch (error) {
    logSendFailure(transportName, message, error);
    throw new AppError("email_unavailable", "The email could not be sent right now; please try again shortly.");
  }
}

function logSendFailure(transport: string, message: OutgoingEmail, error: unknown): void {
  const failure = error as { name?: string; code?: string; responseCode?: number; statusCode?: number | null; message?: string };
  console.error(
    JSON.stringify({
      level: "error",
      event: "email.send_failed",
      transport,
      template: message.template,
      environmentId: message.environment.id,
      error: failure?.name ?? typeof error,
      code: failure?.code,
      status: failure?.responseCode ?? failure?.statusCode ?? undefined,
      message: redact(failure?.message),
    }),
  );
}

/**
 * SMTP replies often quote the recipient ("550 <ada@example.com>: no such user"),
 * and connection URLs may hold a password (user:secret@host): both forms match.
 */
function redact(text: string | undefined): string | undefined {
  return text?.replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "[redacted]").slice(0, 300);
}
