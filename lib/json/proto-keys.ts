import { z } from "zod";
import { isPlainObject } from "./deep-merge";

/** True when `__proto__` is a key anywhere in a parsed JSON value (JSON.parse makes it an own property). */
export function hasProtoKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasProtoKey);
  if (!isPlainObject(value)) return false;
  return Object.keys(value).some((key) => key === "__proto__" || hasProtoKey(value[key]));
}

/**
 * Wraps a schema so a `__proto__` key at any depth is a 400. The check must see the
 * raw input: zod's record parser silently drops `__proto__` keys, so a refinement
 * on the parsed value never sees one and the key vanished behind a 200.
 */
export function refuseProtoKeys<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (hasProtoKey(value)) ctx.addIssue({ code: "custom", message: "must not contain a __proto__ key", input: value });
    return value;
  }, schema);
}
