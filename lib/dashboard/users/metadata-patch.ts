import { isPlainObject, type JsonObject } from "../../json/deep-merge";

/**
 * The metadata editors show a bag whole, and saving means "the bag is now this".
 * updateUserMetadata deep-merges instead (null removes a key at any depth), so the
 * editor's text becomes the patch that turns the stored bag into it: keys gone from
 * the text are null, objects present in both are patched key by key, anything else
 * is replaced. A null written in the text removes its key, as in the Server API.
 */
export function replacementPatch(stored: JsonObject, wanted: JsonObject): JsonObject {
  const patch: JsonObject = {};
  for (const key of Object.keys(stored)) {
    if (!Object.hasOwn(wanted, key)) define(patch, key, null);
  }
  for (const [key, value] of Object.entries(wanted)) {
    const before = stored[key];
    define(patch, key, isPlainObject(value) && isPlainObject(before) ? replacementPatch(before, value) : value);
  }
  return patch;
}

function define(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The editor's text as JSON, or null when it is not JSON at all (the action says so at the field). */
export function parseEditorJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text.trim() === "" ? "{}" : text) };
  } catch {
    return { ok: false };
  }
}

/** The bag as the editor shows it. */
export function editorText(bag: Record<string, unknown>): string {
  return Object.keys(bag).length === 0 ? "{}" : JSON.stringify(bag, null, 2);
}
