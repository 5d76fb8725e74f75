import type { Locale } from "@/lib/email/types";
import { da } from "./da";
import { en } from "./en";
import type { EmailCopy } from "./types";

const COPY: Record<Locale, EmailCopy> = { en, da };

export function copyFor(locale: Locale): EmailCopy {
  return COPY[locale];
}

/** "15 minutes", "24 hours", "2 days": the largest whole unit, so links valid for a day do not read "1440 minutes". */
export function formatDuration(copy: EmailCopy, minutes: number): string {
  if (minutes >= 1440 && minutes % 1440 === 0) return copy.units.days(minutes / 1440);
  if (minutes >= 60 && minutes % 60 === 0) return copy.units.hours(minutes / 60);
  return copy.units.minutes(minutes);
}

export type { AddressNoticeCopy, CodeEmailCopy, EmailCopy, IdentityNoticeCopy, LinkEmailCopy, SecurityNoticeCopy } from "./types";

/** A timestamp in the reader's language, in UTC (the server does not know the reader's zone), e.g. "22 November 2026, 16:48 UTC". */
export function formatTimestamp(copy: EmailCopy, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const formatted = new Intl.DateTimeFormat(copy.languageTag, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(date);
  return `${formatted} UTC`;
}
