import { isProduction } from "../config/runtime";
import { fromLoopback } from "../operation/client-ip";

/** How messages leave the process (CONTRACT §1), read from the environment at call time. */
export type EmailSettings =
  | { transport: "outbox" }
  | { transport: "smtp"; smtpUrl: string }
  | { transport: "resend"; apiKey: string };

/** A configuration mistake; the message names the variable, never its value. */
export class EmailConfigError extends Error {
  override readonly name = "EmailConfigError";
}

export function emailSettings(): EmailSettings {
  const transport = process.env.EMAIL_TRANSPORT?.trim() || "outbox";
  switch (transport) {
    case "outbox":
      return { transport };
    case "smtp": {
      const smtpUrl = process.env.SMTP_URL?.trim();
      if (!smtpUrl || !/^smtps?:\/\//i.test(smtpUrl)) {
        throw new EmailConfigError("EMAIL_TRANSPORT=smtp needs SMTP_URL=smtp://host:port (or smtps://)");
      }
      return { transport, smtpUrl };
    }
    case "resend": {
      const apiKey = process.env.RESEND_API_KEY?.trim();
      if (!apiKey) throw new EmailConfigError("EMAIL_TRANSPORT=resend needs RESEND_API_KEY");
      return { transport, apiKey };
    }
    default:
      throw new EmailConfigError("EMAIL_TRANSPORT must be outbox, smtp or resend");
  }
}

/** The From header of every message. */
export function emailFrom(): string {
  return process.env.EMAIL_FROM?.trim() || "Gatehouse <no-reply@localhost>";
}

/**
 * /dev/mailbox shows every stored message, codes and links included, so it is
 * off in production unless the operator opts in with DEV_MAILBOX=1.
 */
export function mailboxEnabled(): boolean {
  return !isProduction() || process.env.DEV_MAILBOX === "1";
}

/**
 * Whether /dev/mailbox answers this request: when enabled, and only from this machine
 * (lib/http/client-ip.ts: the socket, every forwarded address and the Host are
 * loopback, so a reverse proxy on this host does not open it to the internet). Anyone
 * who can read the mailbox can take over any account that receives a code there.
 */
export function mailboxOpenTo(request: Request): boolean {
  return mailboxEnabled() && fromLoopback(request);
}
