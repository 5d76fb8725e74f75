import { AppError } from "../errors";

/** A line longer than this is refused (its own error) without being held whole. */
export const MAX_LINE_BYTES = 64 * 1024;

export interface ReadLine {
  line: number;
  text: string;
  error?: AppError;
}

/**
 * The lines of an NDJSON body as they arrive, numbered from 1, never holding more than
 * one line (at most 64 KiB) and one network chunk: a 100,000-line upload streams
 * through. UTF-8 is decoded across chunk boundaries; `\r\n` endings are accepted.
 */
export async function* readLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<ReadLine> {
  const decoder = new TextDecoder("utf-8");
  const reader = stream.getReader();
  let buffer = "";
  let line = 0;
  let skipping = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const text = buffer.slice(0, newline).replace(/\r$/, "");
        buffer = buffer.slice(newline + 1);
        line += 1;
        if (skipping) {
          skipping = false;
          yield { line, text: "", error: tooLong() };
        } else yield { line, text };
      }
      if (buffer.length > MAX_LINE_BYTES) {
        skipping = true;
        buffer = "";
      }
      if (done) break;
    }
    if (skipping) yield { line: line + 1, text: "", error: tooLong() };
    else if (buffer !== "") yield { line: line + 1, text: buffer.replace(/\r$/, "") };
  } finally {
    reader.releaseLock();
  }
}

function tooLong(): AppError {
  return new AppError("payload_too_large", `The line exceeds ${MAX_LINE_BYTES} bytes.`);
}
