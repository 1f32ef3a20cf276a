/**
 * Large-data generator for benchmarks:
 *   npx tsx src/server/demo-data/generate-cli.ts --db sqlite:bench/.cache/big.sqlite \
 *     --vendors 50000 --products 1000000 --orders 5000000 --error-logs 1000000 --days 730
 * Options: --seed N (default 1), --visit-days N (default 30), --audit-rows N (default: as many as
 * --error-logs). Migrates the database first.
 */
import { parseArgs } from "node:util";
import { parseDatabaseUrl } from "../platform/config/config.ts";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import { generateLargeDataset } from "./generate.ts";

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "sqlite:./bench/.cache/large.sqlite" },
    vendors: { type: "string", default: "50000" },
    products: { type: "string", default: "1000000" },
    orders: { type: "string", default: "5000000" },
    "error-logs": { type: "string", default: "1000000" },
    /** Audit-log rows; default: as many as --error-logs. */
    "audit-rows": { type: "string" },
    days: { type: "string", default: "730" },
    seed: { type: "string", default: "1" },
    "visit-days": { type: "string", default: "30" },
  },
});

function count(name: string, raw: string | undefined): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) {
    console.error(`--${name} must be a non-negative integer (got ${raw ?? "nothing"})`);
    process.exit(2);
  }
  return n;
}

const database = openDatabase(parseDatabaseUrl(values.db ?? ""));
try {
  await migrateToLatest(database.db);
  const summary = await generateLargeDataset(database, {
    vendors: count("vendors", values.vendors),
    products: count("products", values.products),
    orders: count("orders", values.orders),
    errorLogs: count("error-logs", values["error-logs"]),
    ...(values["audit-rows"] !== undefined ? { auditRows: count("audit-rows", values["audit-rows"]) } : {}),
    days: Math.max(1, count("days", values.days)),
    seed: count("seed", values.seed),
    visitDays: count("visit-days", values["visit-days"]),
    onProgress: (m) => console.log(`[generate] ${m}`),
  });
  console.log(
    `[generate] ${summary.vendors} vendors, ${summary.products} products, ${summary.orders} orders, ${summary.errorLogs} error logs: ${summary.rows} rows in ${summary.seconds.toFixed(1)} s`,
  );
  if (database.sqlite) database.sqlite.pragma("wal_checkpoint(TRUNCATE)");
} finally {
  await database.close();
}
