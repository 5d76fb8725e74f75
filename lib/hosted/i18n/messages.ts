import { da } from "./da";
import { en, type Messages } from "./en";

export type { Messages };
export const LOCALES = ["en", "da"] as const;
export type Locale = (typeof LOCALES)[number];

const DICTIONARIES: Record<Locale, Messages> = { en, da };

export function messagesFor(locale: Locale): Messages {
  return DICTIONARIES[locale];
}

export function isLocale(value: unknown): value is Locale {
  return value === "en" || value === "da";
}

/** Fills `{name}` placeholders; an unknown placeholder stays visible rather than silently vanishing. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}
