/**
 * A handler result sent as a stream instead of one JSON document: an export too big
 * to hold in memory (the audit log as NDJSON). The handler reads its first chunk
 * before answering, so a bad cursor or a database error is still a problem+json
 * answer; the rest is pulled one chunk at a time as the client reads (backpressure),
 * so memory stays flat however long the export is. Only the route kit turns it into
 * a Response; the operation declares `response.contentType`.
 */
export class StreamedBody {
  private constructor(
    readonly first: string,
    readonly rest: AsyncIterator<string>,
  ) {}

  /** One JSON value a line (`application/x-ndjson`), from batches of values; the first batch is read now. */
  static async ndjson(batches: AsyncIterable<unknown[]>): Promise<StreamedBody> {
    const lines = (async function* () {
      for await (const batch of batches) yield batch.map((value) => `${JSON.stringify(value)}\n`).join("");
    })();
    const first = await lines.next();
    return new StreamedBody(first.done ? "" : first.value, lines);
  }
}
