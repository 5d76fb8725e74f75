/**
 * A tiny `--flag value` parser: the bench has a handful of numeric options, not
 * enough to justify a CLI dependency. Unknown flags fail loudly so a typo such as
 * `--user 100000` cannot silently run the default million.
 */
export interface FlagSpec {
  /** Default value; also documents the flag in `--help`. */
  default: number;
  description: string;
  /** Smallest accepted value (defaults to 1). */
  min?: number;
}

export type FlagValues<S extends Record<string, FlagSpec>> = { [K in keyof S]: number };

export class UsageError extends Error {}

export function parseFlags<S extends Record<string, FlagSpec>>(argv: string[], spec: S): FlagValues<S> {
  const values: Record<string, number> = {};
  for (const [name, flag] of Object.entries(spec)) values[name] = flag.default;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const name = match?.[1];
    if (!match || name === undefined || !(name in spec)) throw new UsageError(`unknown option ${arg}`);
    const raw = match[2] ?? argv[++i];
    // Accept 1_000_000 and 1,000,000 as well as 1000000: large counts are easier to type that way.
    const value = Number(raw?.replace(/[_,]/g, ""));
    const min = spec[name]?.min ?? 1;
    if (raw === undefined || !Number.isInteger(value) || value < min) {
      throw new UsageError(`--${name} needs an integer >= ${min}, got ${raw ?? "nothing"}`);
    }
    values[name] = value;
  }
  return values as FlagValues<S>;
}

export function describeFlags(spec: Record<string, FlagSpec>): string {
  return Object.entries(spec)
    .map(([name, flag]) => `    --${name.padEnd(14)} ${flag.description} (default ${flag.default})`)
    .join("\n");
}
