/**
 * `npx tsx bench/ingest.ts --url DATABASE_URL [--seconds S] [--replicas N] [--no-screens] [--cpu-prof DIR] [--out FILE]`
 *
 * The bench's ingestion part alone (docs/performance.md "Ingestion"): starts the real server on the
 * database (production bundle, `replicas` processes on one port), runs `benchIngestion` (4 senders ×
 * batches of 100 of the bench's mix while a client reads the screens), prints and writes its
 * figures, then takes the run's rows out again as `npm run bench` does. `--no-screens`: no client
 * reads the screens meanwhile, so the server's CPU per event is the events' own. Measure on a copy: the
 * orders paid to the data set's own artists stay (IngestionFigures.datasetGrowth). `--cpu-prof DIR`:
 * the server's threads write their CPU profiles there (node --cpu-prof), for where the time goes.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { benchIngestion, removeBenchIngestion } from "./lib/ingestion.ts";
import { measuredCommit, resultFile } from "./lib/result-file.ts";
import { signIn, startServer } from "./lib/server-process.ts";

const commitAtStart = measuredCommit();
const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    url: { type: "string" },
    seconds: { type: "string", default: "10" },
    replicas: { type: "string", default: "1" },
    "no-screens": { type: "boolean", default: false },
    out: { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
if (!values.url) throw new Error("--url DATABASE_URL is required (a copy of a bench data set: the run adds orders to it)");
const databaseUrl = values.url;
const replicas = Number(values.replicas);
const loadAtStart = (await import("node:os")).loadavg()[0]!;

const profileDir = values["cpu-prof"];
const server = await startServer(databaseUrl, { readyTimeoutMs: 30 * 60_000, replicas, ...(profileDir ? { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] } : {}) });
let figures;
try {
  const token = await signIn(server.baseUrl);
  figures = await benchIngestion(
    { baseUrl: server.baseUrl, token, databaseUrl, pid: server.pid },
    { seconds: Number(values.seconds), senders: 4, batchSize: 100, log: console.log, screens: !values["no-screens"] },
  );
} finally {
  await server.stop();
}
await removeBenchIngestion(databaseUrl);
const db = databaseUrl.startsWith("postgres") ? "postgres" : "sqlite";
const out = values.out ?? resultFile(`ingestion-${db}${replicas > 1 ? `-${replicas}-replicas` : ""}`, commitAtStart);
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), commit: commitAtStart, databaseUrl: databaseUrl.replace(/\/\/[^@]*@/, "//"), replicas, screens: !values["no-screens"], loadAverageAtStart: loadAtStart, ingestion: figures }, null, 2)}\n`,
);
console.log(`wrote ${out}`);
