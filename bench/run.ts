/**
 * `npm run bench`: the marketplace-scale benchmark of issue 7 (docs/performance.md explains the
 * figures and the targets). Builds (once, cached in bench/.cache) the target data set and its
 * tenth, starts the real server on each, measures sequential latency of every admin endpoint on
 * both (interleaved), then the full one under autocannon load next to a bare node:http server,
 * then storefront events through POST /api/events (lib/ingestion.ts), prints tables and writes bench/results/<date>-<commit>-<db>-<scale>.json (lib/result-file.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { sql } from "kysely";
import { parseDatabaseUrl } from "../src/server/platform/config/config.ts";
import { type Database, openDatabase } from "../src/server/platform/db/connect.ts";
import { dirname } from "node:path";
import { type Dataset, ensureDataset, scaledSize } from "./lib/dataset.ts";
import { type AnnouncementFigures, benchAnnouncements, removeBenchAnnouncements } from "./lib/announcements.ts";
import { benchWebhooks, removeBenchWebhooks, type WebhookFigures } from "./lib/webhooks.ts";
import { benchIngestion, type IngestionFigures, removeBenchIngestion } from "./lib/ingestion.ts";
import { endpointsFor, loadMix, pickSubjects, type Subjects } from "./lib/endpoints.ts";
import { startSmtpSink } from "../src/server/testing/smtp-sink.ts";
import { type Client, createClient, measureLatency, warmUp } from "./lib/latency.ts";
import { type LoadFigures, recordAnswer, runLoad, startBareServer } from "./lib/load.ts";
import { describeMachine } from "./lib/machine.ts";
import { parseBenchOptions } from "./lib/options.ts";
import { pinServerApart } from "./lib/cpu.ts";
import { checkTargets, cpuRatio, type EndpointResult, latencyTable, loadTable, targetsTable } from "./lib/report.ts";
import { measuredCommit, resultFile } from "./lib/result-file.ts";
import { memoryLine, type RunningServer, serverPeakRss, signIn, startServer } from "./lib/server-process.ts";

const options = parseBenchOptions(process.argv.slice(2));
const machine = describeMachine();
const started = Date.now();
/** The code this run builds and measures (HEAD may move while it runs). */
const commitAtStart = measuredCommit();
const log = (m: string) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}`);

interface Side {
  dataset: Dataset;
  subjects: Subjects;
  server: RunningServer;
  token: string;
  client: Client;
}

/** Untimed requests over every endpoint before the rows, so V8's compiler is done with the request path (latency.ts). */
const WARM_UP_SECONDS = 3;

/** The storefront's door: senders posting at once, events per request, seconds (at most the load runs' duration, so --quick is quick). */
const INGESTION_SENDERS = 4;
const INGESTION_BATCH = 100;
const INGESTION_SECONDS = 10;

/** Alternating dashboard / bare load runs; the round with the median ratio of server CPU per request is the figure. */
const THROUGHPUT_ROUNDS = 3;

/**
 * Moves a data set's catalogue version (migration 020) as a product change would, from another
 * connection: the server's kept search counts no longer match, so its next search counts afresh,
 * and its data version moves, so no kept answer or session matches either. PostgreSQL tells the
 * server through a notification that arrives a moment after the commit: the wait lets it arrive.
 */
const CHANGE_NOTIFICATION_WAIT_MS = 5;
const catalogueWriters = new Map<Side, Database>();
async function moveCatalogueVersion(side: Side): Promise<void> {
  let database = catalogueWriters.get(side);
  if (!database) catalogueWriters.set(side, (database = openDatabase(parseDatabaseUrl(side.dataset.url))));
  await sql`update counters set value = value + 1 where name = 'catalogue_version'`.execute(database.db);
  if (database.kind === "postgres") await new Promise((resolve) => setTimeout(resolve, CHANGE_NOTIFICATION_WAIT_MS));
}

const sides: Side[] = [];
async function openSide(dataset: Dataset): Promise<Side> {
  const subjects = await pickSubjects(dataset.url);
  // A first start on a freshly generated (or newly migrated) data set may run migrations.
  const server = await startServer(dataset.url, { readyTimeoutMs: 30 * 60_000, replicas: options.replicas });
  const side: Side = { dataset, subjects, server, token: "", client: createClient(server.baseUrl, "") };
  sides.push(side);
  side.token = await signIn(server.baseUrl);
  side.client = createClient(server.baseUrl, side.token);
  log(`${dataset.label}: server pid ${server.pid} on ${server.baseUrl}, busiest vendor "${subjects.vendorName}" (${subjects.vendorOrders} orders); ${memoryLine(server.pid)}`);
  return side;
}

async function main(): Promise<void> {
  log(`db ${options.db}, scale ${options.scale}, ${options.replicas} server process(es), ${options.requests} requests per endpoint, load ${options.connections} connections x ${options.duration} s`);
  const databaseUrl = process.env.DATABASE_URL;
  // Announcement mails (docs/product.md §17.3) go to a local SMTP sink in this process; the servers
  // inherit its address (server-process.ts passes the environment on) and a pace above the target.
  const sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  process.env.MAIL_MAX_PER_SECOND ??= "1000";
  // Webhooks go to a receiver in this process, on loopback: production refuses private addresses unless told.
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
  const fullSet = await ensureDataset(options.db, "full", scaledSize(options.scale), { regenerate: options.regenerate, databaseUrl });
  const tenthSet = options.growth ? await ensureDataset(options.db, "tenth", scaledSize(options.scale / 10), { regenerate: options.regenerate, databaseUrl }) : null;

  const full = await openSide(fullSet);
  const tenth = tenthSet ? await openSide(tenthSet) : null;
  // An announcement to every artist: its queueing, the reads meanwhile, the sending pace; then the
  // history and recipients pages are measured with it in place (and it is removed at the end).
  const announcementRuns: Array<{ label: string; url: string; figures: AnnouncementFigures }> = [];
  for (const side of [full, tenth]) {
    if (!side) continue;
    const figures = await benchAnnouncements({ baseUrl: side.server.baseUrl, token: side.token, databaseUrl: side.dataset.url }, sink, {
      sendSeconds: 15,
      log: (m) => log(`${side.dataset.label}: ${m}`),
    });
    side.subjects.announcementId = figures.announcementId;
    side.subjects.recipientsMidCursor = figures.recipientsMidCursor;
    announcementRuns.push({ label: side.dataset.label, url: side.dataset.url, figures });
    log(`${side.dataset.label}: after the announcement, ${memoryLine(side.server.pid)}`);
  }
  // Webhooks (issue 34): a bulk decision's events delivered per second, and decision to delivery, while the screens are read.
  const webhooks: WebhookFigures = await benchWebhooks(
    { baseUrl: full.server.baseUrl, token: full.token, databaseUrl: full.dataset.url },
    { burst: 500, decisions: 40, log: (m) => log(`${full.dataset.label}: ${m}`) },
  );
  // Growth compares the SAME request on both sets: the searches use the tenth's texts on both
  // (each set's busiest store has another name; a longer phrase costs more trigram lists).
  if (tenth) {
    full.subjects.nameSearch = tenth.subjects.nameSearch;
    full.subjects.broadSearch = tenth.subjects.broadSearch;
    full.subjects.productName = tenth.subjects.productName;
    full.subjects.productWord = tenth.subjects.productWord;
  }

  const fullEndpoints = endpointsFor(full.subjects);
  const tenthEndpoints = tenth ? endpointsFor(tenth.subjects) : null;
  const endpoints: EndpointResult[] = [];
  const warmed = await warmUp(
    [{ client: full.client, paths: fullEndpoints.map((e) => e.path) }, ...(tenth && tenthEndpoints ? [{ client: tenth.client, paths: tenthEndpoints.map((e) => e.path) }] : [])],
    WARM_UP_SECONDS,
  );
  log(`warm-up: ${warmed} requests over every endpoint in ${WARM_UP_SECONDS} s (the rows start ${((Date.now() - started) / 1000).toFixed(0)} s into the run, the servers started at its beginning)`);
  for (const [i, e] of fullEndpoints.entries()) {
    const before = (side: Side) => (e.afterAChange ? () => moveCatalogueVersion(side) : undefined);
    const targets = [{ client: full.client, path: e.path, before: before(full) }];
    if (tenth && tenthEndpoints) targets.push({ client: tenth.client, path: tenthEndpoints[i]!.path, before: before(tenth) });
    const [f, t] = await measureLatency(targets, options.requests);
    endpoints.push({ name: e.name, path: e.path, p95TargetMs: e.p95TargetMs, full: f!, tenth: t ?? null, growth: t ? f!.p95 / t.p95 : null });
    log(`${e.name}: p95 ${f!.p95.toFixed(2)} ms${t ? ` (tenth ${t.p95.toFixed(2)} ms)` : ""}`);
  }
  log(`full: after the single requests, ${memoryLine(full.server.pid)}`);
  for (const database of catalogueWriters.values()) await database.close();
  if (tenth) {
    tenth.client.close();
    await tenth.server.stop();
  }
  full.client.close();

  const dashboardPath = fullEndpoints[0]!.path;
  // The bare server sends the dashboard's own answer, headers and all: the same bytes (bare-server.ts).
  const dashboardAnswer = await recordAnswer(full.server.baseUrl, dashboardPath, full.token);
  const load = { connections: options.connections, seconds: options.duration };
  // The dashboard and the bare server take turns, THROUGHPUT_ROUNDS times: a neighbour's burst
  // then hits one round, not the whole comparison. Each run charges its server's CPU time to the
  // requests answered: that ratio (cpuRatio) is the figure held to the floor, the req/s ratio is
  // shown beside it. The round with the median CPU ratio is reported.
  const rounds: Array<{ dashboard: LoadFigures; bare: LoadFigures; ratio: number; cpuRatio: number | null }> = [];
  const bareServer = await startBareServer(dashboardAnswer);
  // Each server on the first CPU, the load generator on the others, for these rounds only (cpu.ts).
  const pins = [pinServerApart(full.server.pid), pinServerApart(bareServer.pid)];
  const notPinned = pins.flatMap((p) => ("notPinned" in p ? [p.notPinned] : []));
  const pinned = notPinned.length === 0;
  log(pinned ? "load: servers pinned to CPU 0, the load generator to the others" : `load: not pinned (${notPinned.join("; ")})`);
  try {
    for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
      log(`load: dashboard stats (round ${round} of ${THROUGHPUT_ROUNDS})`);
      const dashboardRun = await runLoad(full.server.baseUrl, [dashboardPath], { ...load, token: full.token, serverPid: full.server.pid });
      log(`load: bare node:http sending the same answer (${dashboardAnswer.body.length}-byte body, ${Object.keys(dashboardAnswer.headers).length} headers; round ${round} of ${THROUGHPUT_ROUNDS})`);
      const bareRun = await runLoad(bareServer.baseUrl, ["/"], { ...load, serverPid: bareServer.pid });
      rounds.push({ dashboard: dashboardRun, bare: bareRun, ratio: dashboardRun.requestsPerSecond / bareRun.requestsPerSecond, cpuRatio: cpuRatio(dashboardRun, bareRun) });
      log(`full: after load round ${round}, ${memoryLine(full.server.pid)}`);
    }
  } finally {
    for (const p of pins) if ("undo" in p) p.undo();
    await bareServer.stop();
  }
  const { dashboard, bare } = [...rounds].sort((a, b) => (a.cpuRatio ?? a.ratio) - (b.cpuRatio ?? b.ratio))[Math.floor(rounds.length / 2)]!;
  log(`load: read mix`);
  const mix = await runLoad(full.server.baseUrl, loadMix(full.subjects), { ...load, token: full.token, serverPid: full.server.pid });
  log(`full: after the read mix, ${memoryLine(full.server.pid)}`);
  // The peak held to its target is read here, before the ingestion: the figure the earlier result files hold.
  const peak = serverPeakRss(full.server.pid);
  const rss = peak.perProcess;
  // The storefront's door (docs/integration.md) last, as it adds orders to the data set that stay
  // (IngestionFigures.datasetGrowth): every figure above measures the data set as it was.
  const ingestion: IngestionFigures = await benchIngestion(
    { baseUrl: full.server.baseUrl, token: full.token, databaseUrl: full.dataset.url, pid: full.server.pid },
    { seconds: Math.min(options.duration, INGESTION_SECONDS), senders: INGESTION_SENDERS, batchSize: INGESTION_BATCH, log: (m) => log(`${full.dataset.label}: ${m}`) },
  );
  const peakAfterIngestion = serverPeakRss(full.server.pid).perProcess;
  log(`full: after the ingestion, ${memoryLine(full.server.pid)}`);
  await full.server.stop();

  // Issue 25: SQLite (one process) >= 0.35 of bare node:http; PostgreSQL (with replicas) >= 0.25.
  const ratioTarget = options.db === "sqlite" ? 0.35 : 0.25;
  const checks = checkTargets({ endpoints, mix, dashboard, bare, peakRssMb: rss, ratioTarget });
  // The storefront's door: SQLite (one process) >= 2,000 applied events/s in batches of 100; PostgreSQL (2 replicas) >= 1,000.
  const ingestionTarget = options.db === "sqlite" ? 2000 : 1000;
  const ingestionFailures = ingestion.events.rejected + Object.values(ingestion.non2xx).reduce((a, b) => a + b, 0);
  checks.push(
    {
      figure: `ingestion, batches of ${ingestion.batchSize}: events/s`,
      target: `>= ${ingestionTarget}`,
      measured: ingestion.eventsPerSecond.toFixed(0),
      pass: ingestion.eventsPerSecond >= ingestionTarget,
    },
    { figure: "screens during ingestion: p95", target: "<= 10 ms", measured: `${ingestion.screensMeanwhile.p95Ms.toFixed(2)} ms`, pass: ingestion.screensMeanwhile.p95Ms <= 10 },
    { figure: "ingestion: rejected events + non-2xx", target: "0", measured: String(ingestionFailures), pass: ingestionFailures === 0 },
  );
  console.log(`\nSingle-request latency, ms (${options.requests} sequential requests each; growth = p95 full / p95 tenth)\n`);
  console.log(latencyTable(endpoints));
  console.log(
    `\nUnder load (${options.connections} connections x ${options.duration} s); server peak RSS ${rss?.toFixed(0) ?? "?"} MB` +
      (peak.processes > 1 ? ` per process (largest of ${peak.processes}; all processes with the supervisor: ${peak.total?.toFixed(0) ?? "?"} MB)` : "") +
      "\n",
  );
  console.log(
    loadTable([
      { name: "bare node:http", figures: bare },
      { name: "dashboard stats", figures: dashboard },
      { name: "read mix", figures: mix },
    ]),
  );
  const ratioText = (n: number | null) => (n === null ? "?" : n.toFixed(3));
  const usText = (n: number | null) => (n === null ? "?" : n.toFixed(1));
  console.log(
    `\nDashboard / bare node:http by round, server CPU per request (the figure held to the floor): ${rounds
      .map((r) => `${usText(r.bare.serverCpuUsPerRequest)} / ${usText(r.dashboard.serverCpuUsPerRequest)} µs = ${ratioText(r.cpuRatio)}`)
      .join("; ")}` +
      `\nDashboard / bare node:http by round, req/s (shown; depends on the cores the load generator takes): ${rounds
        .map((r) => `${Math.round(r.dashboard.requestsPerSecond)} / ${Math.round(r.bare.requestsPerSecond)} = ${r.ratio.toFixed(3)}`)
        .join("; ")} (median round shown above)`,
  );
  console.log(`\nTargets (issue 7)\n`);
  console.log(targetsTable(checks));
  for (const { label, figures: a } of announcementRuns) {
    console.log(
      `\nAnnouncements (${label}, issue 20): ${a.recipients} recipients queued in ${a.queueSeconds.toFixed(2)} s (target well under 5 s); ` +
        `${a.otherRequests.n} other requests meanwhile: p50 ${a.otherRequests.p50Ms.toFixed(1)} ms, p95 ${a.otherRequests.p95Ms.toFixed(1)} ms, max ${a.otherRequests.maxMs.toFixed(1)} ms; ` +
        `sending ${a.mailsPerSecond.toFixed(0)} mails/s to a local SMTP sink (${a.mailsAccepted} in ${a.sendWindowSeconds.toFixed(1)} s; target ≥ 200)`,
    );
  }
  console.log(
    `\nWebhooks (issue 34): ${webhooks.burstEvents} events of one bulk decision delivered to a local receiver in ${webhooks.burstSeconds.toFixed(2)} s = ${webhooks.eventsPerSecond.toFixed(0)}/s (target ≥ 500); ` +
      `decision to delivery p50 ${webhooks.decisionToDelivery.p50Ms.toFixed(0)} ms, p95 ${webhooks.decisionToDelivery.p95Ms.toFixed(0)} ms over ${webhooks.decisionToDelivery.n} decisions (target p95 ≤ 2000 ms); ` +
      `screens meanwhile p50 ${webhooks.screensMeanwhile.p50Ms.toFixed(1)} ms, p95 ${webhooks.screensMeanwhile.p95Ms.toFixed(1)} ms (${webhooks.screensMeanwhile.n} reads); unverified ${webhooks.unverified}`,
  );
  const mb = (n: number | null) => (n === null ? "?" : n.toFixed(0));
  console.log(
    `\nIngestion (POST /api/events): ${ingestion.events.applied} events applied in ${ingestion.windowSeconds.toFixed(1)} s = ${ingestion.eventsPerSecond.toFixed(0)}/s ` +
      `(${ingestion.senders} senders, batches of ${ingestion.batchSize}; target ≥ ${ingestionTarget}${options.db === "postgres" ? " with 2 replicas" : ""}); ` +
      `server CPU ${ingestion.serverCpuUsPerEvent?.toFixed(0) ?? "?"} µs per event; ` +
      `batch answered p50 ${ingestion.batchMs.p50Ms.toFixed(0)} ms, p95 ${ingestion.batchMs.p95Ms.toFixed(0)} ms; rejected ${ingestion.events.rejected}, non-2xx ${JSON.stringify(ingestion.non2xx)}; ` +
      `screens meanwhile p50 ${ingestion.screensMeanwhile.p50Ms.toFixed(1)} ms, p95 ${ingestion.screensMeanwhile.p95Ms.toFixed(1)} ms (${ingestion.screensMeanwhile.n} reads; target p95 ≤ 10 ms); ` +
      `server peak RSS ${mb(peakAfterIngestion)} MB after it (${mb(rss)} MB before); the data set keeps ${ingestion.datasetGrowth.orderRows} order rows it paid to ${ingestion.datasetGrowth.artists} of its artists`,
  );
  const misses = checks.filter((c) => !c.pass).length;
  console.log(`\n${checks.length - misses} of ${checks.length} targets met on ${machine.nproc} cores (load average ${machine.loadAverageAtStart} at start).`);

  const result = {
    date: new Date().toISOString(),
    machine,
    options,
    datasets: Object.fromEntries(sides.map((s) => [s.dataset.label, { size: s.dataset.size, generatedAt: s.dataset.generatedAt, generationSeconds: s.dataset.generationSeconds }])),
    subjects: Object.fromEntries(sides.map((s) => [s.dataset.label, { ...s.subjects }])),
    latency: endpoints,
    load: {
      bare,
      dashboard,
      mix,
      dashboardToBareRatio: dashboard.requestsPerSecond / bare.requestsPerSecond,
      dashboardToBareCpuRatio: cpuRatio(dashboard, bare),
      throughputRoundsPinned: pinned,
      throughputRounds: rounds.map((r) => ({
        dashboardRequestsPerSecond: r.dashboard.requestsPerSecond,
        bareRequestsPerSecond: r.bare.requestsPerSecond,
        ratio: r.ratio,
        dashboardServerCpuUsPerRequest: r.dashboard.serverCpuUsPerRequest,
        bareServerCpuUsPerRequest: r.bare.serverCpuUsPerRequest,
        cpuRatio: r.cpuRatio,
      })),
      mixPaths: loadMix(full.subjects),
    },
    announcements: Object.fromEntries(announcementRuns.map((r) => [r.label, r.figures])),
    webhooks,
    ingestion: { ...ingestion, serverPeakRssAfterMb: peakAfterIngestion },
    peakRssMb: rss,
    peakRssAllProcessesMb: peak.total,
    serverProcesses: peak.processes,
    targets: checks,
    runSeconds: Math.round((Date.now() - started) / 1000),
  };
  const out = options.out ?? resultFile(`${options.db}-${options.scale === 1 ? "full" : `scale-${options.scale}`}${options.replicas > 1 ? `-${options.replicas}-replicas` : ""}`, commitAtStart);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  // The cached data sets stay as they were generated, but for the orders the ingestion paid to the
  // full set's own artists (IngestionFigures.datasetGrowth: the panel cannot unmake a paid order).
  for (const r of announcementRuns) await removeBenchAnnouncements(r.url, [r.figures.announcementId]);
  await removeBenchIngestion(full.dataset.url);
  await removeBenchWebhooks(full.dataset.url);
  await sink.close();
  log(`wrote ${out}`);
}

main()
  .catch(async (err: unknown) => {
    console.error(`[bench] failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const s of sides) await s.server.stop().catch(() => undefined);
  });
