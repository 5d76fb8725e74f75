import { emailSettings } from "../email-settings";
import type { EmailTransport } from "./email-transport";
import { createOutboxTransport } from "./outbox-transport";
import { createResendTransport } from "./resend-transport";
import { createSmtpTransport } from "./smtp-transport";

const CACHE = Symbol.for("gatehouse.emailTransport");
type GlobalWithTransport = typeof globalThis & { [CACHE]?: { key: string; transport: EmailTransport } };

/**
 * The configured transport, built once per process and reused (nodemailer keeps
 * its settings and, with `?pool=true`, its connections). Kept on globalThis since
 * Next.js may load this module once per route bundle; rebuilt when the settings
 * change, as they do between tests.
 */
export function emailTransport(): EmailTransport {
  const settings = emailSettings();
  const key = JSON.stringify(settings);
  const scope = globalThis as GlobalWithTransport;
  const cached = scope[CACHE];
  if (cached?.key === key) return cached.transport;
  const transport =
    settings.transport === "smtp"
      ? createSmtpTransport(settings.smtpUrl)
      : settings.transport === "resend"
        ? createResendTransport(settings.apiKey)
        : createOutboxTransport();
  cached?.transport.close?.();
  scope[CACHE] = { key, transport };
  return transport;
}
