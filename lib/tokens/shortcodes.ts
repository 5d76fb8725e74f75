import { isPlainObject, type JsonObject } from "../json/deep-merge";
import type { UserRow } from "../users/serialize";

/**
 * `{{ user.email }}` anywhere in a string; the path is the text between the braces,
 * trimmed afterwards. No `\s*` around the group: with it, a "{{" followed by a long
 * run of spaces backtracks quadratically.
 */
const SHORTCODE = /\{\{([^{}]*)\}\}/g;
/** A string that is exactly one shortcode takes the value's own JSON type. */
const WHOLE_SHORTCODE = /^\{\{([^{}]*)\}\}$/;

/** Every shortcode path in a string, as written between the braces. */
export function shortcodePaths(text: string): string[] {
  return [...text.matchAll(SHORTCODE)].map((match) => (match[1] ?? "").trim());
}

/**
 * What shortcodes can read. Built field by field from the user row and never from
 * privateMetadata: that bag is server-only (spec: "never exposed ... in a JWT"), so
 * even a shortcode that slipped past template validation resolves to null.
 */
export function shortcodeContext(user: UserRow, sessionId: string): JsonObject {
  return {
    user: {
      id: user.id,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      name: user.name,
      email_verified: user.emailVerifiedAt !== null,
      public_metadata: user.publicMetadata,
      unsafe_metadata: user.unsafeMetadata,
    },
    session: { id: sessionId },
    // Organizations are not built yet: `{{org.id}}` and friends resolve to null.
    org: { id: null, role: null },
  };
}

/**
 * Resolves every shortcode in a template's claims. Keys are copied as data
 * (Object.fromEntries defines own properties, so a `constructor` key stays a key);
 * only string values are templated. Unknown shortcodes resolve to null.
 */
export function resolveShortcodes(value: unknown, context: JsonObject): unknown {
  if (typeof value === "string") return resolveString(value, context);
  if (Array.isArray(value)) return value.map((item) => resolveShortcodes(item, context));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolveShortcodes(inner, context)]));
  }
  return value;
}

function resolveString(text: string, context: JsonObject): unknown {
  const whole = WHOLE_SHORTCODE.exec(text);
  if (whole) return lookup(context, whole[1] ?? "");
  return text.replace(SHORTCODE, (_match, path: string) => asText(lookup(context, path)));
}

/** Inside a longer string: null and unknown become "", objects their JSON text. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/**
 * Walks a dotted path through own properties only, so `{{user.constructor}}` or
 * `{{user.__proto__}}` can never reach a prototype: they are simply unknown (null).
 */
function lookup(context: JsonObject, path: string): unknown {
  let current: unknown = context;
  for (const segment of path.split(".")) {
    const key = segment.trim();
    if (key === "" || current === null || typeof current !== "object" || !Object.hasOwn(current, key)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current ?? null;
}
