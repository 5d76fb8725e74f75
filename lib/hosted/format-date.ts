import type { Locale } from "./i18n/messages";

/**
 * Dates and times on hosted pages. The server does not know the reader's time
 * zone, so the time says which one it is in.
 */
export function dateTimeFormat(locale: Locale): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(locale === "da" ? "da-DK" : "en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
}
