import { cookies, headers } from "next/headers";
import { messagesFor, type Locale, type Messages } from "../../hosted/i18n/messages";
import { LOCALE_COOKIE, pickLocale } from "../../hosted/locale";
import { da } from "./da";
import { en, type DashboardMessages } from "./en";

export type { DashboardMessages };

const DICTIONARIES: Record<Locale, DashboardMessages> = { en, da };

export interface DashboardCopy {
  locale: Locale;
  t: DashboardMessages;
  /** The hosted pages' messages: form errors and the language switcher read the same wording. */
  shared: Messages;
}

/**
 * The dashboard's language: the language switcher's cookie (shared with the hosted
 * pages), else the browser's languages, else English. Operators have no profile
 * language (yet), and no environment's default applies to them.
 */
export async function dashboardCopy(): Promise<DashboardCopy> {
  const locale = pickLocale({
    chosen: (await cookies()).get(LOCALE_COOKIE)?.value,
    userLocale: null,
    acceptLanguage: (await headers()).get("accept-language"),
    defaultLocale: "en",
  });
  return { locale, t: DICTIONARIES[locale], shared: messagesFor(locale) };
}
