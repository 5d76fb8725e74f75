import { parse as parseCookies } from "cookie";

/**
 * The name a cookie that binds a flow to this browser goes by: on https a `__Host-`
 * cookie (Secure, Path=/, no Domain), which a sibling subdomain can neither plant
 * nor overwrite, so one a reader finds was set by this host; plain http is loopback
 * development, where browsers refuse the prefix and the plain name stays. A reader
 * looks only under the name of the request's own security: a plain-named cookie on
 * https is one anybody on the parent domain could have set.
 */
export function hostPrefixed(name: string, secure: boolean): string {
  return secure ? `__Host-${name}` : name;
}

/**
 * Every value of cookie `name` in a Cookie header, in order. Read from the raw header:
 * a cookie parser keeps one value per name and would hide that there were two.
 */
export function cookieValues(header: string | null, name: string): string[] {
  if (!header?.includes(name)) return [];
  const values: string[] = [];
  for (const pair of header.split(";")) {
    const separator = pair.indexOf("=");
    if (separator !== -1 && pair.slice(0, separator).trim() === name) values.push(pair.slice(separator + 1).trim());
  }
  return values;
}

/**
 * Whether the header carries cookie `name` more than once. Two cookies of one name
 * mean one was planted (a sibling subdomain's Domain cookie, or one with a narrower
 * Path, to put the victim into the attacker's session or flow); which one the
 * browser lists first is not ours to trust, so a reader takes such a name as absent.
 * Every cookie a sibling could plant is read through this one rule, unless something
 * only this host can set tells the two apart (the session cookie's `__Host-`
 * companion on https: lib/sessions/cookies.ts).
 */
export function cookiePresentedTwice(header: string | null, name: string): boolean {
  return cookieValues(header, name).length > 1;
}

/** The value of cookie `name` when the header carries it exactly once (cookiePresentedTwice), else undefined. */
export function soleCookieValue(header: string | null, name: string): string | undefined {
  return cookiePresentedTwice(header, name) ? undefined : cookieValues(header, name)[0];
}

/** Every cookie of the header (decoded), less the names it carries twice (cookiePresentedTwice). */
export function unambiguousCookies(header: string | null): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(parseCookies(header ?? "")).filter(([name]) => !cookiePresentedTwice(header, name)));
}
