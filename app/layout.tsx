import type { Metadata, Viewport } from "next";
import { cookies, headers } from "next/headers";
import type { ReactNode } from "react";
import { isLocale } from "@/lib/hosted/i18n/messages";
import { LOCALE_COOKIE, localeFromAcceptLanguage } from "@/lib/hosted/locale";
import "./globals.css";

export const metadata: Metadata = { title: "Gatehouse" };

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/**
 * The root layout. `lang` comes from the language switcher's cookie or the
 * browser's languages; a hosted page also sets its exact language (which may come
 * from the signed-in user's profile) on its outermost element.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const lang = isLocale(chosen) ? chosen : (localeFromAcceptLanguage((await headers()).get("accept-language")) ?? "en");
  return (
    <html lang={lang}>
      <body>{children}</body>
    </html>
  );
}
