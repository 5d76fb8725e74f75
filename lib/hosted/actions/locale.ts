"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { isLocale } from "../i18n/messages";
import { LOCALE_COOKIE } from "../locale";
import { formText } from "../form-state";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * Where to go back to after switching: only a path on this same host. A full URL,
 * `//host` or a backslash form would turn the switcher into an open redirect.
 */
function sameHostPath(value: string): string {
  return /^\/(?![/\\])[^\\\s]*$/.test(value) && value.length <= 4096 ? value : "/sign-in";
}

/** The language switcher: remembers the choice in a cookie and reloads the same page. */
export async function chooseLocaleAction(form: FormData): Promise<void> {
  const locale = formText(form, "locale");
  if (isLocale(locale)) {
    const https = (await headers()).get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
    (await cookies()).set(LOCALE_COOKIE, locale, { path: "/", sameSite: "lax", httpOnly: true, secure: https, maxAge: ONE_YEAR_SECONDS });
  }
  redirect(sameHostPath(formText(form, "returnTo")));
}
