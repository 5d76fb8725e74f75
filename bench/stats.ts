/** Latency summaries and plain-text tables for bench output. */

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * Nearest-rank percentile (the smallest sample with at least p% of samples at or
 * below it): with 200 samples p99 is the 2nd-worst one, an actual observation
 * rather than an interpolation between two.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error("percentile of no samples");
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] as number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) as number,
  };
}

export function formatMs(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export type Align = "left" | "right";

export interface Column {
  header: string;
  align?: Align;
}

/** Renders rows under a header with a dashed rule; numbers read best right-aligned. */
export function renderTable(columns: readonly Column[], rows: readonly (readonly string[])[]): string {
  const widths = columns.map((column, i) => Math.max(column.header.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (columns[i]?.align === "right" ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(columns.map((c) => c.header)), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export function elapsedSince(start: number): number {
  return performance.now() - start;
}
