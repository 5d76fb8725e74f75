import type { EmailTemplateName, EmailTemplates, Locale, OutgoingEmail } from "@/lib/email/types";

/** The environment's branding as an email needs it. */
export type EmailBrand = OutgoingEmail["environment"];

/** What every template component receives: its own props plus branding and locale. */
export type TemplateProps<T extends EmailTemplateName> = EmailTemplates[T] & { brand: EmailBrand; locale: Locale };
