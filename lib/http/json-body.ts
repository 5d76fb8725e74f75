import { AppError } from "../errors";

export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_JSON_DEPTH = 32;

/**
 * Reads and parses a JSON body with the limits every endpoint shares: 64 KiB (413),
 * JSON only, nesting at most 32 levels, no NUL characters (Postgres text and jsonb
 * cannot store them, and they are a classic truncation trick) and no lone UTF-16
 * surrogates (`"\ud800"` is valid JSON but not Unicode: jsonb refused it with a 500
 * and text columns silently turned it into U+FFFD).
 * Returns undefined for an empty body.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimitedText(request);
  if (text.trim() === "") return undefined;

  const contentType = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new AppError("unsupported_media_type", "Send the body as application/json.");
  }
  assertDepth(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("invalid_request", `Malformed JSON: ${(error as Error).message}`);
  }
  assertStorableStrings(value);
  return value;
}

/**
 * A plain HTML form post (`application/x-www-form-urlencoded`), for the few
 * operations a page without JavaScript posts to directly: the same size limit and
 * string checks as JSON; every value a string. Undefined for an empty body.
 */
export async function readFormBody(request: Request): Promise<Record<string, string> | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const text = await readLimitedText(request);
  if (text.trim() === "") return undefined;
  const value = Object.fromEntries(new URLSearchParams(text));
  assertStorableStrings(value);
  return value;
}

/** Whether a request's body is a plain HTML form post. */
export function isFormPost(request: Request): boolean {
  return /^application\/x-www-form-urlencoded\b/i.test(request.headers.get("content-type") ?? "");
}

function tooLarge(): AppError {
  return new AppError("payload_too_large", `The body exceeds ${MAX_BODY_BYTES} bytes.`);
}

async function readLimitedText(request: Request): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

/** Counts bracket depth outside strings before parsing, so deep nesting never reaches JSON.parse. */
function assertDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) {
        throw new AppError("invalid_request", `JSON nesting exceeds ${MAX_JSON_DEPTH} levels.`);
      }
    } else if (char === 0x7d || char === 0x5d) {
      depth--;
    }
  }
}

/** A UTF-16 surrogate not paired with its other half; `u` mode reads pairs as one code point. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Refuses (400) strings Postgres cannot store or compare: NUL characters and lone surrogates, at any depth. */
export function assertStorableStrings(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      if (value.includes("\u0000")) throw new AppError("invalid_request", "Strings must not contain NUL characters.");
      if (LONE_SURROGATE.test(value)) {
        throw new AppError("invalid_request", "Strings must be well-formed Unicode: a \\u escape names a lone surrogate.");
      }
    } else if (Array.isArray(value)) {
      stack.push(...value);
    } else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        stack.push(key, inner);
      }
    }
  }
}
