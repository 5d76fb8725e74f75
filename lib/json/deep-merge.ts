export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Merges `patch` into `base` without mutating either: objects merge recursively,
 * `null` deletes the key at any depth, anything else replaces. Keys are written
 * with defineProperty so a `constructor` or `prototype` key stays plain data.
 */
export function deepMerge(base: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [key, value] of Object.entries(base)) define(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[key];
    } else if (isPlainObject(value) && isPlainObject(result[key])) {
      define(result, key, deepMerge(result[key] as JsonObject, value));
    } else {
      define(result, key, isPlainObject(value) ? deepMerge({}, value) : value);
    }
  }
  return result;
}

function define(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
