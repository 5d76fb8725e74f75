import { isLocale, LOCALES, type Locale } from "./i18n/messages";

/** Set by the language switcher; read before anything else so a person's explicit choice wins. */
export const LOCALE_COOKIE = "gh_locale";

/** The first supported language in an Accept-Language header, by quality (RFC 9110 §12.5.4). */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .slice(0, 20)
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { primary: tag.trim().toLowerCase().split("-")[0] ?? "", q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const match = ranked.find((entry) => (LOCALES as readonly string[]).includes(entry.primary));
  return match && isLocale(match.primary) ? match.primary : null;
}

/** Switcher cookie, else the signed-in user's locale, else the browser's languages, else the environment default. */
export function pickLocale(sources: {
  chosen: string | null | undefined;
  userLocale: Locale | null | undefined;
  acceptLanguage: string | null | undefined;
  defaultLocale: Locale;
}): Locale {
  if (isLocale(sources.chosen)) return sources.chosen;
  if (sources.userLocale) return sources.userLocale;
  return localeFromAcceptLanguage(sources.acceptLanguage) ?? sources.defaultLocale;
}
