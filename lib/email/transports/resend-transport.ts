import { Resend } from "resend";
import type { EmailTransport, Envelope } from "./email-transport";

/** Error thrown when Resend answers with an error object instead of throwing. */
export class ResendSendError extends Error {
  override readonly name = "ResendSendError";
  constructor(
    message: string,
    readonly code: string,
    readonly statusCode: number | null,
  ) {
    super(message);
  }
}

/** Resend's HTTP API through its official client (which honours RESEND_BASE_URL). */
export function createResendTransport(apiKey: string): EmailTransport {
  const client = new Resend(apiKey);
  return {
    name: "resend",
    async send(_db, envelope: Envelope) {
      // The client reports failures in the result rather than by throwing.
      const { error } = await client.emails.send({
        from: envelope.from,
        to: envelope.to,
        subject: envelope.subject,
        html: envelope.html,
        text: envelope.text,
      });
      if (error) throw new ResendSendError(error.message, error.name, error.statusCode);
    },
  };
}
