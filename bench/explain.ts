import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import type { Database } from "@/db/client";
import * as schema from "@/db/schema";

/** The parts of an EXPLAIN (FORMAT JSON) node the summary reads. */
interface PlanNode {
  "Node Type": string;
  "Parent Relationship"?: string;
  "Scan Direction"?: string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Sort Method"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  Plans?: PlanNode[];
}

interface ExplainJson {
  Plan: PlanNode;
  "Planning Time": number;
  "Execution Time": number;
}

export interface PlanReport {
  /** One line: the node chain with the index used and the rows it had to discard. */
  shape: string;
  planningMs: number;
  executionMs: number;
  /** The full EXPLAIN (ANALYZE, BUFFERS) text. */
  text: string;
}

/**
 * EXPLAIN ANALYZE for exactly the SQL the service sends. A second drizzle handle
 * with a query logger runs the real `searchUsers` once, keeps the statement and
 * its parameters, and replays them under EXPLAIN, so the plan shown cannot drift
 * from the code being timed.
 */
export class PlanInspector {
  private readonly client: postgres.Sql;
  private readonly db: Database;
  private captured: { text: string; params: unknown[] }[] = [];

  constructor(url: string) {
    this.client = postgres(url, { max: 1, onnotice: () => {} });
    this.db = drizzle(this.client, {
      schema,
      logger: { logQuery: (text, params) => void this.captured.push({ text, params }) },
    });
  }

  /** One report per statement `run` sends, in order (a substring search may send two). */
  async explain(run: (db: Database) => Promise<unknown>): Promise<PlanReport[]> {
    this.captured = [];
    await run(this.db);
    const statements = this.captured;
    if (statements.length === 0) throw new Error("the explained call sent no query");
    const reports: PlanReport[] = [];
    for (const { text, params } of statements) {
      const bound = params as postgres.ParameterOrJSON<never>[];
      const [jsonRow] = await this.client.unsafe<{ "QUERY PLAN": ExplainJson[] }[]>(
        `explain (analyze, buffers, format json) ${text}`,
        bound,
      );
      const textRows = await this.client.unsafe<{ "QUERY PLAN": string }[]>(`explain (analyze, buffers) ${text}`, bound);
      const plan = jsonRow?.["QUERY PLAN"][0];
      if (!plan) throw new Error("EXPLAIN returned no plan");
      reports.push({
        shape: describeNode(plan.Plan),
        planningMs: plan["Planning Time"],
        executionMs: plan["Execution Time"],
        text: textRows.map((row) => row["QUERY PLAN"]).join("\n"),
      });
    }
    return reports;
  }

  close(): Promise<void> {
    return this.client.end({ timeout: 5 });
  }
}

/** `Limit > Index Scan Backward users_environment_created_idx (rows 21, filtered 150)`; init plans in braces. */
function describeNode(node: PlanNode): string {
  const direction = node["Scan Direction"] === "Backward" ? " Backward" : "";
  const target = node["Index Name"] ?? node["Relation Name"];
  const notes = [
    `rows ${node["Actual Rows"] ?? 0}${(node["Actual Loops"] ?? 1) > 1 ? ` x${node["Actual Loops"]}` : ""}`,
    node["Rows Removed by Filter"] ? `filtered ${node["Rows Removed by Filter"]}` : "",
    node["Rows Removed by Index Recheck"] ? `rechecked away ${node["Rows Removed by Index Recheck"]}` : "",
    node["Sort Method"] ?? "",
  ].filter(Boolean);
  const self = `${node["Node Type"]}${direction}${target ? ` ${target}` : ""} (${notes.join(", ")})`;

  const children = node.Plans ?? [];
  const initPlans = children.filter((child) => child["Parent Relationship"] === "InitPlan");
  const inputs = children.filter((child) => child["Parent Relationship"] !== "InitPlan");
  const init = initPlans.length ? ` {init: ${initPlans.map(describeNode).join("; ")}}` : "";
  if (inputs.length === 0) return self + init;
  if (inputs.length === 1) return `${self}${init} > ${describeNode(inputs[0] as PlanNode)}`;
  return `${self}${init} > [${inputs.map(describeNode).join(" + ")}]`;
}
