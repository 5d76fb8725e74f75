import { SESSION_COOKIE } from "@/lib/sessions/cookies";

/*
 * The browser a hosted (or dashboard) page or server action sees when a test runs it in-process:
 * its request headers and its cookie jar, behind a stand-in for next/headers. A
 * test file installs the stand-in with
 *   vi.mock("next/headers", () => import("../../helpers/hosted-page-browser").then((browser) => browser.nextHeaders));
 */
export const pageBrowser = { headers: new Headers(), jar: new Map<string, string>() };

export const nextHeaders = {
  headers: async () => pageBrowser.headers,
  cookies: async () => ({
    get: (name: string) => (pageBrowser.jar.has(name) ? { name, value: pageBrowser.jar.get(name) } : undefined),
    // Both of Next's spellings: set(cookie) and set(name, value, options), which next-auth uses; an empty value clears.
    set: (name: string | { name: string; value: string }, value?: string) => {
      const cookie = typeof name === "string" ? { name, value: value ?? "" } : name;
      if (cookie.value === "") pageBrowser.jar.delete(cookie.name);
      else pageBrowser.jar.set(cookie.name, cookie.value);
    },
  }),
};

/** A fresh browser on localhost, with the session cookie of `token`, or signed out. */
export function signIn(token: string | null): void {
  pageBrowser.jar.clear();
  pageBrowser.headers = new Headers({ host: "localhost", "accept-language": "en", ...(token ? { cookie: `${SESSION_COOKIE}=${token}` } : {}) });
}

/** Runs a page or an action; a redirect (Next's signal) answers its target instead. */
export async function orRedirect<T>(run: () => Promise<T>): Promise<T | { redirect: string }> {
  try {
    return await run();
  } catch (error) {
    const digest = (error as { digest?: string }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return { redirect: digest.split(";")[2] ?? "" };
    throw error;
  }
}
