import type { Database } from "@/db/client";
import { searchUsers } from "@/lib/users/search-users";
import { elapsedSince, formatCount, formatSeconds, summarize, type LatencySummary } from "./stats";

/** The largest page the API allows: a full export walks with it. */
export const WALK_PAGE_LIMIT = 100;

/**
 * Follows nextCursor from the first page to the last, timing every page: the
 * direct proof that a page deep in the walk costs what the first one does.
 */
export async function walkAllPages(db: Database, environmentId: string, count: number): Promise<{ pages: number; latency: LatencySummary }> {
  const expectedPages = Math.ceil(count / WALK_PAGE_LIMIT);
  console.log(`walking all ${formatCount(expectedPages)} pages (limit ${WALK_PAGE_LIMIT})…`);
  const samples: number[] = [];
  const started = performance.now();
  let cursor: string | undefined;
  let seen = 0;
  let nextReport = 0.1;
  do {
    const pageStarted = performance.now();
    const page = await searchUsers(db, environmentId, {}, { limit: WALK_PAGE_LIMIT, cursor });
    samples.push(elapsedSince(pageStarted));
    seen += page.items.length;
    cursor = page.nextCursor ?? undefined;
    if (seen / count >= nextReport) {
      console.log(`  ${formatCount(seen).padStart(11)} users, ${formatCount(samples.length)} pages, ${formatSeconds(elapsedSince(started))}`);
      nextReport += 0.1;
    }
  } while (cursor);
  if (seen !== count) throw new Error(`the walk saw ${seen} users, expected ${count}`);
  return { pages: samples.length, latency: summarize(samples) };
}
