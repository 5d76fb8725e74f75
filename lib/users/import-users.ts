import type { z } from "zod";
import type { Database } from "@/db/client";
import type { Actor } from "../audit/record-event";
import type { DigestExtras } from "../auth/password-hasher";
import type { EnvironmentContext } from "../environments/context";
import { AppError, problemBody, type FieldError } from "../errors";
import { readLines } from "./ndjson-lines";
import { emailTaken, externalIdTaken, insertNewUsers, newUserRow, takenError, takenIdentifiers, type NewUserRow } from "./new-user-rows";
import { importConfigLine, importUserLine } from "./schemas";

export const IMPORT_MAX_LINES = 100_000;
/** Users per multi-row insert (measured: 1,000 beat 500 by a fifth at 100,000 users); results streamed as each batch lands. */
const BATCH_SIZE = 1000;
/** Batches written at once: the database's index work overlaps, and parsing overlaps both. */
const WRITERS = 3;

/** What each line of the answer says: the new user's id, or why the line was refused. */
export type ImportResult = { line: number; id: string } | { line: number; error: AppError };

interface Pending {
  line: number;
  row: NewUserRow;
}

function lineZodError(error: z.ZodError): AppError {
  const fieldErrors: FieldError[] = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join(".") : "line",
    code: issue.code,
    message: issue.message,
  }));
  const [first] = fieldErrors;
  const more = fieldErrors.length > 1 ? ` (and ${fieldErrors.length - 1} more)` : "";
  return new AppError("invalid_request", first ? `${first.field}: ${first.message}${more}` : "Invalid line.", { fieldErrors });
}

/**
 * One line as JSON. NUL characters and lone surrogates are refused as in any JSON
 * body (Postgres cannot store them); JSON.stringify writes both as \u escapes, so
 * one test of the canonical form finds them at any depth.
 */
function parseLine(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError("invalid_request", `The line is not JSON: ${(error as Error).message}`);
  }
  let canonical: string;
  try {
    canonical = JSON.stringify(value);
  } catch {
    // A line nested thousands deep parses but overflows the stack when written back: that line's error, not the import's.
    throw new AppError("invalid_request", "The line is nested too deeply.");
  }
  if (/\\u0000|\\ud[89a-f][0-9a-f]{2}/i.test(canonical)) {
    throw new AppError("invalid_request", "Strings must not contain NUL characters or lone surrogates.");
  }
  return value;
}

function isConfigLine(value: unknown): boolean {
  return typeof value === "object" && value !== null && "hasherConfig" in value;
}

/** What earlier lines of this import claimed: a later line claiming it again is refused. */
interface Claimed {
  emails: Set<string>;
  externalIds: Set<string>;
}

/** Refuses the lines whose email or externalId an earlier line of the import claimed; the others claim theirs. */
function claimIdentifiers(batch: Pending[], claimed: Claimed, results: ImportResult[]): Pending[] {
  const accepted: Pending[] = [];
  for (const pending of batch) {
    const { email, external_id: externalId } = pending.row;
    if (email && claimed.emails.has(email)) results.push({ line: pending.line, error: emailTaken() });
    else if (externalId && claimed.externalIds.has(externalId)) results.push({ line: pending.line, error: externalIdTaken() });
    else {
      if (email) claimed.emails.add(email);
      if (externalId) claimed.externalIds.add(externalId);
      accepted.push(pending);
    }
  }
  return accepted;
}

/**
 * Writes one batch: refuses, per line, an email or externalId another user already
 * holds, then inserts the rest in one statement (atomic: one transaction). Should a
 * concurrent write elsewhere take an identifier between the check and the insert, the
 * batch is retried row by row so only that line fails.
 */
async function writeBatch(db: Database, environment: EnvironmentContext, batch: Pending[], actor: Actor): Promise<ImportResult[]> {
  const emails = batch.flatMap(({ row }) => (row.email ? [row.email] : []));
  const externalIds = batch.flatMap(({ row }) => (row.external_id ? [row.external_id] : []));
  const taken = await takenIdentifiers(db, environment.id, emails, externalIds);
  const results: ImportResult[] = [];
  const accepted = batch.filter(({ line, row }) => {
    const error = row.email && taken.emails.has(row.email) ? emailTaken() : row.external_id && taken.externalIds.has(row.external_id) ? externalIdTaken() : null;
    if (error) results.push({ line, error });
    return !error;
  });
  try {
    await insertNewUsers(db, environment, accepted.map(({ row }) => row), actor);
    results.push(...accepted.map(({ line, row }) => ({ line, id: row.id })));
  } catch (error) {
    if (!takenError(error)) throw error;
    for (const { line, row } of accepted) {
      try {
        await insertNewUsers(db, environment, [row], actor);
        results.push({ line, id: row.id });
      } catch (rowError) {
        const refusal = takenError(rowError);
        if (!refusal) throw rowError;
        results.push({ line, error: refusal });
      }
    }
  }
  return results;
}

/**
 * Imports users from NDJSON lines (CONTRACT §5, import), yielding the lines' results
 * a batch at a time as each batch is written (a refused line's at once). Each line is checked on its own (schema, metadata, digest
 * format); a refused line never stops the others. The first line may carry the
 * hashers' parameters (`{"hasherConfig": …}`); it answers only if it is refused.
 * Blank lines are skipped. Past 100,000 lines the import stops with a 413 line.
 * A refused line answers at once, accepted ones when their batch is written: the
 * answer is not in line order.
 */
export async function* importUsers(
  db: Database,
  environment: EnvironmentContext,
  stream: ReadableStream<Uint8Array>,
  actor: Actor,
): AsyncGenerator<ImportResult[]> {
  let extras: Pick<DigestExtras, "hasherConfig"> = {};
  let batch: Pending[] = [];
  const claimed: Claimed = { emails: new Set(), externalIds: new Set() };
  // Up to WRITERS batches are written at once while the next is parsed. Lines of the
  // same import never collide in the database: `claimed` settled them first.
  const writing: Promise<ImportResult[]>[] = [];
  const write = async (pending: Pending[]): Promise<ImportResult[]> => {
    const refused: ImportResult[] = [];
    const accepted = claimIdentifiers(pending, claimed, refused);
    const started = writeBatch(db, environment, accepted, actor);
    // Awaited in turn below; this only keeps a failure meanwhile from counting as unhandled.
    started.catch(() => {});
    writing.push(started);
    const done = writing.length >= WRITERS ? await (writing.shift() ?? Promise.resolve([])) : [];
    return [...refused, ...done];
  };
  let users = 0;
  for await (const { line, text, error } of readLines(stream)) {
    if (error) {
      yield [{ line, error }];
      continue;
    }
    if (text.trim() === "") continue;
    try {
      const value = parseLine(text);
      if (line === 1 && isConfigLine(value)) {
        const config = importConfigLine.safeParse(value);
        if (!config.success) throw lineZodError(config.error);
        extras = config.data;
        continue;
      }
      if (++users > IMPORT_MAX_LINES) {
        yield [{ line, error: new AppError("payload_too_large", `An import holds at most ${IMPORT_MAX_LINES} users; this line and the rest were not read.`) }];
        break;
      }
      const input = importUserLine.safeParse(value);
      if (!input.success) throw lineZodError(input.error);
      batch.push({ line, row: await newUserRow(environment, input.data, extras) });
    } catch (caught) {
      if (!(caught instanceof AppError)) throw caught;
      yield [{ line, error: caught }];
    }
    if (batch.length >= BATCH_SIZE) {
      const done = await write(batch);
      batch = [];
      if (done.length > 0) yield done;
    }
  }
  const done = await write(batch);
  if (done.length > 0) yield done;
  for (const rest of writing.splice(0)) {
    const results = await rest;
    if (results.length > 0) yield results;
  }
}

/** A result as its NDJSON value: `{line, id}` or `{line, error: problem}`. */
export function importResultValue(result: ImportResult, requestId: string): object {
  return "id" in result ? result : { line: result.line, error: problemBody(result.error, requestId) };
}

/**
 * The import's results as the response's batches of lines (the route kit streams
 * them: lib/operation/streamed-body.ts), each written as soon as its batch is done.
 */
export async function* importResultBatches(results: AsyncGenerator<ImportResult[]>, requestId: string): AsyncGenerator<object[]> {
  for await (const batch of results) yield batch.map((result) => importResultValue(result, requestId));
}
