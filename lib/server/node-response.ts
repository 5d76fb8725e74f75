import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";

/** Statuses that never carry a body (RFC 9110 §6.4.1). */
const NO_BODY_STATUSES = new Set([204, 205, 304]);
const NOT_YET = Symbol("not yet");

export interface SendOptions {
  /** A HEAD request: headers only. */
  head: boolean;
  /** Close the connection after this response (see bodyStillArriving). */
  close: boolean;
}

/**
 * Writes a Web Response to Node's ServerResponse. Every Set-Cookie stays its own
 * header line (Headers would otherwise fold them into one comma-joined value, which
 * browsers misread). A body that is complete at once, as every JSON answer is, goes
 * out in one write with a Content-Length; anything longer is streamed with
 * backpressure, like Next.js streams route handler bodies.
 */
export async function sendWebResponse(res: ServerResponse, response: Response, options: SendOptions): Promise<void> {
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (options.close) headers.connection = "close";
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);

  const body = response.body;
  if (!body || options.head || NO_BODY_STATUSES.has(response.status)) {
    await body?.cancel();
    res.end();
    return;
  }

  const reader = body.getReader();
  const first = await reader.read();
  if (first.done) {
    res.end();
    return;
  }
  const firstChunk = first.value;
  // A second read that has already settled means the body was a single chunk: end()
  // with it lets Node set Content-Length. A pending one (a real stream) must not
  // hold back the first bytes, so it is raced against an already-resolved marker.
  const pending = reader.read();
  const second = await Promise.race([pending, Promise.resolve(NOT_YET)]);
  if (second !== NOT_YET && second.done) {
    res.end(firstChunk);
    return;
  }

  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield firstChunk;
    let next = second === NOT_YET ? await pending : second;
    while (!next.done) {
      yield next.value;
      next = await reader.read();
    }
  }
  try {
    await pipeline(chunks, res);
  } catch {
    // The client went away mid-stream: nothing left to tell it.
    await reader.cancel().catch(() => {});
    res.destroy();
  }
}
