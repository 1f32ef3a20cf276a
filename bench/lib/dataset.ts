import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

/** The target data set; `--scale` multiplies every count. */
export const TARGET = { vendors: 50_000, products: 1_000_000, orders: 5_000_000, errorLogs: 1_000_000, days: 730 } as const;

export interface DatasetSize {
  vendors: number;
  products: number;
  orders: number;
  errorLogs: number;
  days: number;
}

export function scaledSize(scale: number): DatasetSize {
  const n = (v: number) => Math.max(1, Math.round(v * scale));
  return { vendors: n(TARGET.vendors), products: n(TARGET.products), orders: n(TARGET.orders), errorLogs: n(TARGET.errorLogs), days: TARGET.days };
}

export interface Dataset {
  label: string;
  size: DatasetSize;
  /** DATABASE_URL for the server. */
  url: string;
  generatedAt: string;
  generationSeconds: number | null;
}

const CACHE_DIR = "bench/.cache";
// "-audit": data sets generated before the generator wrote audit rows (as many as error logs) are made again.
const sizeKey = (s: DatasetSize) => `${s.vendors}v-${s.products}p-${s.orders}o-${s.errorLogs}e-${s.days}d-audit-moderation`;

interface Stamp {
  size: DatasetSize;
  generatedAt: string;
  seconds: number;
}

/** Runs the generator CLI (it migrates first) and streams its progress lines. */
function runGenerator(url: string, size: DatasetSize): Promise<number> {
  const started = Date.now();
  const args = [
    "--import",
    "tsx",
    "src/server/demo-data/generate-cli.ts",
    "--db",
    url,
    "--vendors",
    String(size.vendors),
    "--products",
    String(size.products),
    "--orders",
    String(size.orders),
    "--error-logs",
    String(size.errorLogs),
    "--days",
    String(size.days),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve((Date.now() - started) / 1000) : reject(new Error(`generator exited with ${code}`))));
  });
}

/**
 * A cached SQLite file per size: generated once into a ".partial" file and renamed when complete,
 * so an interrupted generation is never mistaken for a data set.
 */
async function ensureSqlite(label: string, size: DatasetSize, regenerate: boolean): Promise<Dataset> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = join(CACHE_DIR, `sqlite-${sizeKey(size)}.sqlite`);
  const stampFile = `${file}.json`;
  if (regenerate) for (const f of [file, `${file}-wal`, `${file}-shm`, stampFile]) rmSync(f, { force: true });
  if (!existsSync(file) || !existsSync(stampFile)) {
    const partial = join(CACHE_DIR, `sqlite-${sizeKey(size)}.partial.sqlite`);
    for (const f of [partial, `${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
    console.log(`[bench] generating the ${label} data set (${sizeKey(size)}) into ${file}: this takes a while, once`);
    const seconds = await runGenerator(`sqlite:${partial}`, size);
    // The generator checkpoints and closes: the -wal/-shm files are empty leftovers.
    for (const f of [`${partial}-wal`, `${partial}-shm`]) rmSync(f, { force: true });
    renameSync(partial, file);
    writeFileSync(stampFile, JSON.stringify({ size, generatedAt: new Date().toISOString(), seconds } satisfies Stamp, null, 2));
  }
  const stamp = JSON.parse(readFileSync(stampFile, "utf8")) as Stamp;
  return { label, size, url: `sqlite:${file}`, generatedAt: stamp.generatedAt, generationSeconds: stamp.seconds };
}

/** Puts the data set's schema first on the search path; "public" stays on it for the pg_trgm functions. */
export function postgresUrlWithSchema(baseUrl: string, schema: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set("options", `-c search_path=${schema},public`);
  return url.toString();
}

/**
 * PostgreSQL: one schema per size in the DATABASE_URL database. A marker table written after the
 * generator finished says the schema is complete; otherwise it is dropped and generated again.
 */
async function ensurePostgres(label: string, size: DatasetSize, regenerate: boolean, baseUrl: string): Promise<Dataset> {
  const schema = `bench_${sizeKey(size).replace(/-/g, "_")}`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    const marker = await client
      .query<{ generated_at: string; seconds: number }>(`select generated_at, seconds from ${schema}.bench_dataset`)
      .then((r) => r.rows[0])
      .catch(() => undefined);
    if (marker && !regenerate) {
      return { label, size, url: postgresUrlWithSchema(baseUrl, schema), generatedAt: marker.generated_at, generationSeconds: marker.seconds };
    }
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`create schema ${schema}`);
    console.log(`[bench] generating the ${label} data set (${sizeKey(size)}) into PostgreSQL schema ${schema}: this takes a while, once`);
    const url = postgresUrlWithSchema(baseUrl, schema);
    const seconds = await runGenerator(url, size);
    // Statistics for the planner and a clean visibility map, as a long-running database would have.
    await client.query(`vacuum analyze`);
    const generatedAt = new Date().toISOString();
    await client.query(`create table ${schema}.bench_dataset (generated_at text not null, seconds double precision not null)`);
    await client.query(`insert into ${schema}.bench_dataset values ($1, $2)`, [generatedAt, seconds]);
    return { label, size, url, generatedAt, generationSeconds: seconds };
  } finally {
    await client.end();
  }
}

export async function ensureDataset(db: "sqlite" | "postgres", label: string, size: DatasetSize, options: { regenerate: boolean; databaseUrl?: string | undefined }): Promise<Dataset> {
  if (db === "sqlite") return ensureSqlite(label, size, options.regenerate);
  if (!options.databaseUrl?.startsWith("postgres")) throw new Error("--db postgres needs DATABASE_URL=postgres://...");
  return ensurePostgres(label, size, options.regenerate, options.databaseUrl);
}
