import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, readJsonBody } from "@/lib/http/json-body";
import { AppError } from "@/lib/errors";

function request(body: BodyInit | null, headers: Record<string, string> = { "content-type": "application/json" }) {
  return new Request("http://localhost/x", { method: "POST", body, headers });
}

async function failure(req: Request): Promise<AppError> {
  try {
    await readJsonBody(req);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("readJsonBody accepted the body");
}

describe("readJsonBody", () => {
  it("parses a JSON body", async () => {
    expect(await readJsonBody(request('{"a":[1,{"b":null}]}'))).toEqual({ a: [1, { b: null }] });
  });

  it("returns undefined for a missing, empty or blank body, whatever the content type", async () => {
    expect(await readJsonBody(new Request("http://localhost/x", { method: "POST" }))).toBeUndefined();
    expect(await readJsonBody(request(""))).toBeUndefined();
    expect(await readJsonBody(request(" \r\n\t", { "content-type": "text/plain" }))).toBeUndefined();
  });

  it("accepts application/json with parameters and +json types, case-insensitively", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json", "application/vnd.api+json"]) {
      expect(await readJsonBody(request("{}", { "content-type": type }))).toEqual({});
    }
  });

  it("refuses other content types with 415", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp", "text/json", ""]) {
      const error = await failure(request("{}", { "content-type": type }));
      expect(error.code).toBe("unsupported_media_type");
      expect(error.status).toBe(415);
    }
  });

  it("refuses malformed JSON with invalid_request", async () => {
    for (const text of ["{", "{'a':1}", "{} {}", "[1,]", "NaN", "undefined"]) {
      expect((await failure(request(text))).code).toBe("invalid_request");
    }
  });

  it("accepts exactly 64 KiB and refuses one byte more with 413", async () => {
    const exact = `"${"x".repeat(MAX_BODY_BYTES - 2)}"`;
    expect(await readJsonBody(request(exact))).toHaveLength(MAX_BODY_BYTES - 2);
    const over = await failure(request(`"${"x".repeat(MAX_BODY_BYTES - 1)}"`));
    expect(over.code).toBe("payload_too_large");
    expect(over.status).toBe(413);
  });

  it("counts bytes, not characters, towards the limit", async () => {
    // 22,000 three-byte characters are 66,000 bytes.
    expect((await failure(request(`"${"€".repeat(22_000)}"`))).code).toBe("payload_too_large");
  });

  it("trusts a declared Content-Length over the limit without reading", async () => {
    const error = await failure(request("{}", { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) }));
    expect(error.code).toBe("payload_too_large");
  });

  it("accepts nesting up to the depth limit and refuses one level more", async () => {
    const nest = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(await readJsonBody(request(nest(MAX_JSON_DEPTH)))).toBeDefined();
    expect((await failure(request(nest(MAX_JSON_DEPTH + 1)))).code).toBe("invalid_request");
    expect((await failure(request(nest(10_000)))).code).toBe("invalid_request");
  });

  it("does not count brackets inside strings, even after escaped quotes", async () => {
    const text = JSON.stringify({ s: `\\"${"[{".repeat(100)}` });
    expect(await readJsonBody(request(text))).toEqual({ s: `\\"${"[{".repeat(100)}` });
  });

  it("refuses NUL in values and keys, however deep", async () => {
    for (const text of ['"\\u0000"', '{"a\\u0000":1}', '{"a":[{"b":["x\\u0000"]}]}']) {
      expect((await failure(request(text))).message).toMatch(/NUL/);
    }
  });

  it("refuses lone surrogates in values and keys (regression: jsonb answered them with a 500)", async () => {
    for (const text of ['"\\ud800"', '"x\\udfff"', '{"\\udbff":1}', '{"a":["ok","\\ud83d"]}']) {
      const error = await failure(request(text));
      expect(error.code).toBe("invalid_request");
      expect(error.message).toMatch(/Unicode/);
    }
  });

  it("keeps surrogate pairs and other Unicode intact", async () => {
    expect(await readJsonBody(request('{"e":"\\ud83e\\udd84 🦄 ü 中"}'))).toEqual({ e: "🦄 🦄 ü 中" });
  });

  it("decodes invalid UTF-8 bytes as U+FFFD instead of failing", async () => {
    const bytes = Buffer.from([0x22, 0xff, 0x22]);
    expect(await readJsonBody(request(bytes))).toBe("\uFFFD");
  });
});
