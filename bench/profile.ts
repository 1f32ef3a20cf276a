/**
 * `npx tsx bench/profile.ts [--db sqlite|postgres] [--scale F] [--duration S] [--connections N] [--url DATABASE_URL] [--out FILE]`
 *
 * Where a request's CPU goes under load (docs/performance.md, "Where a request's CPU goes").
 * Starts the real server as `npm start` runs it (production bundle, NODE_ENV=production, the JSON
 * access line at LOG_LEVEL info into a pipe, prom-client metrics recorded) with `node --cpu-prof`,
 * runs the dashboard alone and then the bench's read mix under autocannon, stops the server (the
 * profile is written at exit), and attributes every sample taken DURING each load run to a part of
 * the request path by the source file of the code that was running (through the bundle's source
 * map; native functions count for their JavaScript caller). Prints microseconds of CPU per request
 * for each part and writes the figures as JSON.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ensureDataset, scaledSize } from "./lib/dataset.ts";
import { loadMix, pickSubjects, endpointsFor } from "./lib/endpoints.ts";
import { runLoad, type LoadFigures } from "./lib/load.ts";
import { measuredCommit, resultFile } from "./lib/result-file.ts";
import { signIn, startServer } from "./lib/server-process.ts";

/** The code this run measures, read at its start (HEAD may move while it runs). */
const commitAtStart = measuredCommit();

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    db: { type: "string", default: "sqlite" },
    scale: { type: "string", default: "0.1" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "100" },
    /** Default: a new file named by date and commit (lib/result-file.ts). */
    out: { type: "string" },
    label: { type: "string", default: "" },
    /** A DATABASE_URL to profile on instead of the bench's cached data set (e.g. a copy, to compare two builds on the same data). */
    url: { type: "string" },
  },
});
const db = values.db === "postgres" ? "postgres" : "sqlite";
const seconds = Number(values.duration);

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The parts of a request's path, by the source file (or package) of the running code; first match wins. */
const PARTS: Array<[string, RegExp]> = [
  [
    "access log (pino, logger.ts, redaction)",
    /node_modules\/(pino|sonic-boom|fast-redact|quick-format-unescaped|fast-safe-stringify|on-exit-leak-free|thread-stream|atomic-sleep)\/|platform\/logging\/|error-recorder\/redact\.ts/,
  ],
  ["metrics (prom-client, metrics.ts)", /node_modules\/(prom-client|tdigest|bintrees)\/|platform\/metrics\//],
  ["request id (ids.ts)", /platform\/db\/ids\.ts|node_modules\/uuid/],
  ["session + viewer rule (identity, auth middleware)", /platform\/identity\/|platform\/request\/auth-middleware\.ts/],
  ["security headers, client address", /platform\/http\/(security-headers|client-address)\.ts/],
  ["database (Kysely, driver, SQL, caches)", /node_modules\/(kysely|better-sqlite3|pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\/|platform\/db\//],
  ["endpoint code (areas, domain, validation)", /src\/server\/(features|domain|platform\/request\/endpoint-router|platform\/http\/validate)|src\/contract\/|node_modules\/zod\//],
  ["app middleware (app.ts)", /src\/server\/app\.ts/],
  ["Hono + @hono/node-server", /node_modules\/(hono|@hono\/node-server)\//],
  ["other server code", /src\/server\//],
  ["web Headers objects (undici, node-server)", /^node:internal\/deps\/undici/],
  ["Node HTTP, sockets, streams (node:*)", /^node:|^internal\//],
];
const SPECIAL: Record<string, string> = {
  "(garbage collector)": "garbage collection",
  "(program)": "V8/native outside JavaScript (program)",
  "(idle)": "idle",
  "(root)": "idle",
};

function sourceMapOf(file: string): SourceMap | null {
  try {
    const text = readFileSync(`${file}.map`, "utf8");
    return new SourceMap(JSON.parse(text) as ConstructorParameters<typeof SourceMap>[0]);
  } catch {
    return null;
  }
}

/** Classifies every profile node; native frames (no url) take their caller's part. Also names each node's function by its original source. */
function classify(profile: CpuProfile): { parts: Map<number, string>; labels: Map<number, string> } {
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const maps = new Map<string, SourceMap | null>();
  const sourceOf = (url: string, line: number, column: number): string => {
    if (!url.startsWith("file://") || !url.includes("/dist/server/")) return url;
    const file = new URL(url).pathname;
    if (!maps.has(file)) maps.set(file, sourceMapOf(file));
    const map = maps.get(file);
    const entry = map?.findEntry(line, column) as { originalSource?: string } | undefined;
    return entry?.originalSource ?? url;
  };
  const own = new Map<number, string | null>();
  const ownPart = (n: CpuProfileNode): string | null => {
    if (own.has(n.id)) return own.get(n.id)!;
    let part: string | null = null;
    const special = SPECIAL[n.callFrame.functionName];
    if (special && !n.callFrame.url) part = special;
    else if (n.callFrame.url) {
      const source = sourceOf(n.callFrame.url, n.callFrame.lineNumber, n.callFrame.columnNumber);
      part = PARTS.find(([, re]) => re.test(source))?.[0] ?? "other";
    }
    own.set(n.id, part);
    return part;
  };
  const labels = new Map<number, string>();
  for (const n of profile.nodes) {
    const f = n.callFrame;
    const source = f.url
      ? sourceOf(f.url, f.lineNumber, f.columnNumber)
          .replace(/^.*node_modules\//, "")
          .replace(/^.*\/src\//, "src/")
      : "";
    let label = `${f.functionName || "(anonymous)"} ${source}`.trim();
    if (!f.url) {
      // A native function: name its JavaScript caller too.
      let up = parentOf.get(n.id);
      while (up !== undefined && !byId.get(up)!.callFrame.url) up = parentOf.get(up);
      const caller = up === undefined ? undefined : byId.get(up)!.callFrame;
      if (caller)
        label += ` <- ${caller.functionName || "(anonymous)"} ${sourceOf(caller.url, caller.lineNumber, caller.columnNumber)
          .replace(/^.*node_modules\//, "")
          .replace(/^.*\/src\//, "src/")}`;
    }
    labels.set(n.id, label);
  }
  const result = new Map<number, string>();
  for (const n of profile.nodes) {
    let cursor: CpuProfileNode | undefined = n;
    let part: string | null = null;
    while (cursor && part === null) {
      part = ownPart(cursor);
      const parent = parentOf.get(cursor.id);
      cursor = parent === undefined ? undefined : byId.get(parent);
    }
    result.set(n.id, part ?? "native (no JavaScript caller)");
  }
  return { parts: result, labels };
}

/** Microseconds of samples per part inside [from, to] (monotonic µs, as the profile's clock). */
function attribute(profile: CpuProfile, parts: Map<number, string>, from: number, to: number): Map<string, number> {
  const totals = new Map<string, number>();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (t < from || t > to) continue;
    const part = parts.get(profile.samples[i]!)!;
    totals.set(part, (totals.get(part) ?? 0) + next);
  }
  return totals;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function main(): Promise<void> {
  const dataset = values.url ? { url: values.url } : await ensureDataset(db, "full", scaledSize(Number(values.scale)), { regenerate: false, databaseUrl: process.env.DATABASE_URL });
  const subjects = await pickSubjects(dataset.url);
  const dir = mkdtempSync(join(tmpdir(), "hki-cpu-prof-"));
  const server = await startServer(dataset.url, { readyTimeoutMs: 10 * 60_000, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
  const windows: Array<{ name: string; from: number; to: number; load: LoadFigures }> = [];
  try {
    const token = await signIn(server.baseUrl);
    const dashboard = endpointsFor(subjects)[0]!.path;
    const load = { connections: Number(values.connections), seconds, token };
    // Warm-up: caches, statement caches, JIT.
    await runLoad(server.baseUrl, loadMix(subjects), { ...load, seconds: 3 });
    for (const [name, paths] of [
      ["dashboard", [dashboard]],
      ["read mix", loadMix(subjects)],
    ] as const) {
      const from = nowUs();
      const figures = await runLoad(server.baseUrl, [...paths], load);
      windows.push({ name, from, to: nowUs(), load: figures });
      console.log(`${name}: ${figures.requestsPerSecond.toFixed(0)} req/s, p99 ${figures.p99Ms} ms, ${figures.errors} errors`);
    }
  } finally {
    await server.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no profile written in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
  const { parts, labels } = classify(profile);
  const rows = windows.map((w) => {
    const totals = attribute(profile, parts, w.from, w.to);
    const functions = attribute(profile, labels, w.from, w.to);
    const top = [...functions]
      .filter(([name]) => !name.startsWith("(idle)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25);
    console.log(`\nTop functions (self time) during ${w.name}, µs per request:`);
    for (const [name, us] of top) console.log(`${(us / w.load.requests).toFixed(2).padStart(8)}  ${name}`);
    const requests = w.load.requests;
    const perRequest = Object.fromEntries([...totals].map(([part, us]) => [part, us / requests]));
    const busy = [...totals].filter(([part]) => part !== "idle").reduce((sum, [, us]) => sum + us, 0);
    const topFunctions = top.map(([name, us]) => ({ name, usPerRequest: us / requests }));
    return { name: w.name, requests, requestsPerSecond: w.load.requestsPerSecond, p99Ms: w.load.p99Ms, cpuUsPerRequest: busy / requests, perRequest, topFunctions };
  });
  const names = [...new Set(rows.flatMap((r) => Object.keys(r.perRequest)))].sort((a, b) => (rows[0]!.perRequest[b] ?? 0) - (rows[0]!.perRequest[a] ?? 0));
  console.log(`\nCPU per request, µs (samples during each load run ÷ requests answered)\n`);
  console.log(`${"part".padEnd(52)} ${rows.map((r) => r.name.padStart(10)).join(" ")}`);
  for (const n of names) console.log(`${n.padEnd(52)} ${rows.map((r) => (r.perRequest[n] ?? 0).toFixed(1).padStart(10)).join(" ")}`);
  console.log(`${"total busy (all but idle)".padEnd(52)} ${rows.map((r) => r.cpuUsPerRequest.toFixed(1).padStart(10)).join(" ")}`);
  const out = resolve(values.out ?? resultFile(`profile-${db}-scale-${Number(values.scale)}${values.label ? `-${values.label}` : ""}`, commitAtStart));
  writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString(), label: values.label, db, scale: Number(values.scale), seconds, profileFile: join(dir, file), rows }, null, 2)}\n`);
  console.log(`\nwrote ${out} (profile: ${join(dir, file)})`);
}

main().catch((err: unknown) => {
  console.error(`[profile] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
