import { render } from "@react-email/render";
import { createElement } from "react";
import { EMAIL_TEMPLATES, type EmailTemplate } from "@/emails";
import { copyFor } from "@/emails/copy";
import type { TemplateProps } from "@/emails/types";
import type { EmailTemplateName, OutgoingEmail } from "./types";

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * html-to-text options on top of React Email's own (which already turn off word
 * wrapping, so long URLs are never split, and print a link's href after its label).
 * Headings would otherwise come out in capitals, which mangles names in them.
 */
const TEXT_OPTIONS = {
  selectors: ["h1", "h2", "h3"].map((selector) => ({ selector, options: { uppercase: false } })),
};

/** Renders a message to its subject, HTML part (React Email) and text part. */
export async function renderEmail<T extends EmailTemplateName>(message: OutgoingEmail<T>): Promise<RenderedEmail> {
  assertAbsoluteLinks(message.props);
  // Indexing the mapped registry with a generic key loses the link between name
  // and props; `OutgoingEmail<T>` already ties them together for the caller.
  const template = EMAIL_TEMPLATES[message.template] as unknown as EmailTemplate<EmailTemplateName>;
  const props: TemplateProps<EmailTemplateName> = { ...message.props, brand: message.environment, locale: message.locale };
  const element = createElement(template.component, props);
  const [html, text] = await Promise.all([
    render(element),
    render(element, { plainText: true, htmlToTextOptions: TEXT_OPTIONS }),
  ]);
  return {
    // Names in the subject come from users (organization, inviter): no line breaks into a mail header.
    subject: template.subject(copyFor(message.locale), props).replace(/\s+/g, " ").trim(),
    html,
    // The hidden preview line leaves a run of blank lines behind; one blank line is enough.
    text: `${text.replace(/\n{3,}/g, "\n\n").trim()}\n`,
  };
}

/**
 * Links in an email are opened from a mail client, where a relative URL means
 * nothing: every `...Url`/`url` prop must be absolute http(s). A failure here is
 * a bug in the caller, not a user error.
 */
function assertAbsoluteLinks(props: object): void {
  for (const [key, value] of Object.entries(props)) {
    if (!/url$/i.test(key) || typeof value !== "string") continue;
    let protocol: string | null = null;
    try {
      protocol = new URL(value).protocol;
    } catch {
      protocol = null;
    }
    if (protocol !== "https:" && protocol !== "http:") {
      throw new Error(`email prop ${key} must be an absolute http(s) URL`);
    }
  }
}
