import { parseArgs } from "node:util";

export interface BenchOptions {
  db: "sqlite" | "postgres";
  /** Fraction of the target data set (1 = 50k vendors, 1M products, 5M orders, 1M error logs). */
  scale: number;
  /** Sequential requests per endpoint (after a warm-up). */
  requests: number;
  /** Seconds per load run. */
  duration: number;
  connections: number;
  /** Server processes behind one port (WEB_CONCURRENCY; the cluster supervisor, decision 0006). */
  replicas: number;
  growth: boolean;
  regenerate: boolean;
  /** Where the result goes; by default a new file named by date and commit (result-file.ts). */
  out: string | undefined;
}

const USAGE = `npm run bench -- [--db sqlite|postgres] [--scale F] [--quick] [--requests N] [--duration S]
                     [--connections N] [--replicas N] [--no-growth] [--regenerate] [--out FILE]`;

/** Reads the command line; a bad value stops with the usage line rather than running a wrong benchmark. */
export function parseBenchOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: "string", default: "sqlite" },
      scale: { type: "string" },
      quick: { type: "boolean", default: false },
      requests: { type: "string" },
      duration: { type: "string" },
      connections: { type: "string", default: "100" },
      replicas: { type: "string", default: "1" },
      "no-growth": { type: "boolean", default: false },
      regenerate: { type: "boolean", default: false },
      out: { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const fail = (message: string): never => {
    console.error(`${message}\n${USAGE}`);
    process.exit(2);
  };
  const number = (name: string, raw: string | undefined, fallback: number, min: number): number => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) fail(`--${name} must be a number >= ${min} (got ${raw})`);
    return n;
  };
  if (values.db !== "sqlite" && values.db !== "postgres") fail(`--db must be sqlite or postgres (got ${values.db})`);
  const db = values.db as "sqlite" | "postgres";
  const quick = values.quick ?? false;
  // PostgreSQL loads are far slower than the SQLite bulk path: default to a tenth there.
  const scale = number("scale", values.scale, db === "postgres" ? 0.1 : 1, 0.0001);
  if (scale > 1) fail("--scale must be at most 1");
  return {
    db,
    scale,
    // 1,000: p95 is then the 50th slowest, steady enough to compare sub-millisecond endpoints across sets.
    requests: Math.round(number("requests", values.requests, quick ? 60 : 1000, 10)),
    duration: number("duration", values.duration, quick ? 3 : 10, 1),
    connections: Math.round(number("connections", values.connections, 100, 1)),
    replicas: Math.round(number("replicas", values.replicas, 1, 1)),
    growth: !(values["no-growth"] ?? false),
    regenerate: values.regenerate ?? false,
    out: values.out,
  };
}
