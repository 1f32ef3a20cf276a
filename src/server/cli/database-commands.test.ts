import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest, pendingMigrations } from "../platform/db/migrate.ts";
import type { DB } from "../platform/db/schema.ts";
import { databaseChecksum } from "../testing/db-checksum.ts";

/**
 * The operator's database commands, run as the operator runs them: the server's entry with a
 * command (`main.ts db:migrate`, what `npm run db:migrate` and the image run), in its own process,
 * on the database named by DATABASE_URL (or by a .env file in its working directory).
 */
const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const MAIN = join(ROOT, "src/server/main.ts");

interface Finished {
  code: number | null;
  output: string;
}

/** Starts `main.ts <args>`; `cwd` is where a .env would be read from. */
function startCommand(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): { done: Promise<Finished> } {
  const env: Record<string, string | undefined> = { ...process.env, SEED_DEMO: "false", LOG_LEVEL: "silent", ...options.env };
  // The test's own environment must not decide the database (a .env test leaves DATABASE_URL to the file).
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", TSX, MAIN, ...args], { cwd: options.cwd ?? ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  return { done: new Promise((resolve) => child.once("exit", (code) => resolve({ code, output }))) };
}

const runCommand = (args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) => startCommand(args, options).done;

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hki-db-commands-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("db:migrate", () => {
  it("runs the pending migrations of the database named in .env and exits; a second run has nothing to do", async () => {
    const dir = tempDir();
    const path = join(dir, "admin.sqlite");
    writeFileSync(join(dir, ".env"), `DATABASE_URL=sqlite:${path}\n`);
    const first = await runCommand(["db:migrate"], { cwd: dir });
    expect(first.output).toMatch(/^db:migrate: applied \d+ migration\(s\) to SQLite .*admin\.sqlite: 001-initial-schema, /m);
    expect(first.code).toBe(0);
    const database = openDatabase({ kind: "sqlite", path });
    try {
      const { pending, known } = await pendingMigrations(database.db);
      expect(pending).toEqual([]);
      const second = await runCommand(["db:migrate"], { cwd: dir });
      expect([second.code, second.output.trim()]).toEqual([0, `db:migrate: SQLite ${path} is up to date (${known} migrations).`]);
    } finally {
      await database.close();
    }
  });

  it("stops before touching the database when the configuration is bad, naming every bad variable", async () => {
    const dir = tempDir();
    const result = await runCommand(["db:migrate"], { cwd: dir, env: { DATABASE_URL: `sqlite:${join(dir, "admin.sqlite")}`, PORT: "none", DATABASE_POOL_MAX: "0" } });
    expect(result.code).toBe(1);
    expect(result.output.trim().split("\n")).toEqual([expect.stringMatching(/^Configuration error: Invalid PORT: /), expect.stringMatching(/^Configuration error: Invalid DATABASE_POOL_MAX: /)]);
    expect(existsSync(join(dir, "admin.sqlite"))).toBe(false);
  });
});

/**
 * A writer standing for the running panel: step i commits, in one transaction, a row in one table
 * and a value in another, so a torn snapshot (one without the other) shows. After every commit it
 * records the checksum of the two tables it writes; the rest of the database does not move.
 */
class LoadWriter {
  step = 0;
  readonly touchedAfter = new Map<number, Record<string, string>>();
  private stopped = false;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly others: string[],
  ) {}

  start(): void {
    this.running = (async () => {
      while (!this.stopped) {
        const i = this.step + 1;
        await this.db.transaction().execute(async (trx) => {
          await trx
            .insertInto("rate_limits")
            .values({ bucket: `load:${i}`, window_started_at: i, count: i })
            .execute();
          await trx
            .insertInto("platform_settings")
            .values({ key: "backup_load_step", value: String(i), description: "load", updated_at: "2026-01-01T00:00:00.000Z", updated_by: null })
            .onConflict((c) => c.column("key").doUpdateSet({ value: String(i) }))
            .execute();
        });
        this.step = i;
        this.touchedAfter.set(i, await databaseChecksum(this.db, { exclude: this.others }));
        // better-sqlite3 answers synchronously: without a turn of the event loop the test would never see the command end.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }
}

/** The last step a database holds (the writer's commits are numbered). */
async function stepOf(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "backup_load_step").executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** Rows that make the backup take a while: 20,000 error-log entries (their counts kept by triggers). */
async function fill(db: Kysely<DB>): Promise<void> {
  const message = "x".repeat(400);
  for (let chunk = 0; chunk < 20; chunk++) {
    await db
      .insertInto("error_logs")
      .values(
        Array.from({ length: 1000 }, (_, k) => ({
          id: `fill-${chunk}-${k}`,
          level: "error" as const,
          message,
          created_at: "2026-01-01T00:00:00.000Z",
          archived_at: null,
          archived: 0,
        })),
      )
      .execute();
  }
}

/**
 * Backs up the database while `writer` commits, and checks that the snapshot fell in the middle of
 * the load (after the command started, before it ended).
 */
async function backupUnderLoad(writer: LoadWriter, databaseUrl: string, file: string): Promise<{ startedAt: number; endedAt: number }> {
  writer.start();
  while (writer.step < 20) await new Promise((resolve) => setTimeout(resolve, 5));
  const startedAt = writer.step;
  const result = await runCommand(["db:backup", file], { env: { DATABASE_URL: databaseUrl } });
  const endedAt = writer.step;
  await writer.stop();
  expect(result.output).toMatch(/^db:backup: backed up .* to .*\(.*MB\)\.$/m);
  expect(result.code).toBe(0);
  return { startedAt, endedAt };
}

/** The tables the writer does not touch. */
async function untouchedTables(db: Kysely<DB>): Promise<string[]> {
  const all = Object.keys(await databaseChecksum(db));
  return all.filter((table) => table !== "rate_limits" && table !== "platform_settings");
}

describe("db:backup and db:restore (SQLite)", () => {
  it("backs up under write load a snapshot that restores to exactly one commit, every table equal", async () => {
    const dir = tempDir();
    const path = join(dir, "admin.sqlite");
    const url = `sqlite:${path}`;
    const panel: Database = openDatabase({ kind: "sqlite", path });
    try {
      await migrateToLatest(panel.db);
      await fill(panel.db);
      const initial = await databaseChecksum(panel.db);
      const writer = new LoadWriter(panel.db, await untouchedTables(panel.db));
      const file = join(dir, "backup.sqlite");
      const window = await backupUnderLoad(writer, url, file);

      // A fresh database from the backup (the panel stopped, or another host).
      const fresh = join(dir, "restored.sqlite");
      const restored = await runCommand(["db:restore", file], { env: { DATABASE_URL: `sqlite:${fresh}` } });
      expect(restored.output).toMatch(/^db:restore: restored .*backup\.sqlite into SQLite .*restored\.sqlite/m);
      expect(restored.code).toBe(0);
      const copy = openDatabase({ kind: "sqlite", path: fresh });
      try {
        const n = await stepOf(copy.db);
        expect(n).toBeGreaterThan(window.startedAt);
        expect(n).toBeLessThanOrEqual(window.endedAt);
        expect(await databaseChecksum(copy.db)).toEqual({ ...initial, ...writer.touchedAfter.get(n) });
        expect((await pendingMigrations(copy.db)).pending).toEqual([]);
      } finally {
        await copy.close();
      }

      // The running panel's database: refused while it is open, and nothing changes.
      const before = await databaseChecksum(panel.db);
      const refused = await runCommand(["db:restore", file], { env: { DATABASE_URL: url } });
      expect(refused.output).toContain("is open in a running panel (or another command): stop it first, or add --force");
      expect(refused.code).toBe(1);
      expect(await databaseChecksum(panel.db)).toEqual(before);

      // --force restores into it anyway, and the open connection sees the backup at once.
      const forced = await runCommand(["db:restore", file, "--force"], { env: { DATABASE_URL: url } });
      expect(forced.code).toBe(0);
      const n = await stepOf(panel.db);
      expect(await databaseChecksum(panel.db)).toEqual({ ...initial, ...writer.touchedAfter.get(n) });
    } finally {
      await panel.close();
    }
  }, 60_000);

  it("refuses a file that is not a backup of the panel's database, and never overwrites a file", async () => {
    const dir = tempDir();
    const path = join(dir, "admin.sqlite");
    const notBackup = join(dir, "notes.txt");
    writeFileSync(notBackup, "not a database ".repeat(100));
    const restore = await runCommand(["db:restore", notBackup], { env: { DATABASE_URL: `sqlite:${path}` } });
    expect(restore.code).toBe(1);
    expect(restore.output).toMatch(/notes\.txt (cannot be opened as an SQLite database|is not a backup of the panel's database)/);
    expect(existsSync(path)).toBe(false);

    const migrated = await runCommand(["db:migrate"], { env: { DATABASE_URL: `sqlite:${path}` } });
    expect(migrated.code).toBe(0);
    const backup = await runCommand(["db:backup", notBackup], { env: { DATABASE_URL: `sqlite:${path}` } });
    expect([backup.code, backup.output.trim()]).toEqual([1, `db:backup: ${notBackup} exists already: a backup never overwrites a file; choose a new name.`]);
  }, 60_000);
});

const pgUrl = process.env.TEST_DATABASE_URL;
const pgDumpInstalled = !spawnSync("pg_dump", ["--version"]).error && !spawnSync("pg_restore", ["--version"]).error;

describe.runIf(pgUrl && pgDumpInstalled)("db:backup and db:restore (PostgreSQL, pg_dump)", () => {
  // The panel works in a schema of its own (as every PostgreSQL test does), so other tests' tables are not in its backup.
  const admin = new pg.Client({ connectionString: pgUrl });
  const schema = `t_backup_${randomBytes(5).toString("hex")}`;
  const schemaUrl = () => {
    const url = new URL(pgUrl!);
    url.searchParams.set("options", `-c search_path=${schema}`);
    return url.toString();
  };
  afterAll(async () => {
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
  });

  it("backs up under write load with pg_dump; a restore is refused while the panel is connected, then brings back every table", async () => {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = schemaUrl();
    let panel = openDatabase({ kind: "postgres", url });
    try {
      await migrateToLatest(panel.db);
      await fill(panel.db);
      const initial = await databaseChecksum(panel.db);
      const writer = new LoadWriter(panel.db, await untouchedTables(panel.db));
      const file = join(tempDir(), "backup.dump");
      const window = await backupUnderLoad(writer, url, file);

      // The panel's pool is connected (application_name hki-admin:<schema>): refused, nothing changed.
      await sql`select 1`.execute(panel.db);
      const before = await databaseChecksum(panel.db);
      const refused = await runCommand(["db:restore", file], { env: { DATABASE_URL: url } });
      expect(refused.output).toMatch(/A running panel is connected to this database \(\d+ session\(s\)\): stop it first, or add --force/);
      expect(refused.code).toBe(1);
      expect(await databaseChecksum(panel.db)).toEqual(before);

      // The panel stopped: the restore brings the schema back to the backup's one commit.
      await panel.close();
      const restored = await runCommand(["db:restore", file], { env: { DATABASE_URL: url } });
      expect(restored.output).toMatch(/^db:restore: restored .*backup\.dump into PostgreSQL /m);
      expect(restored.code).toBe(0);
      panel = openDatabase({ kind: "postgres", url });
      const n = await stepOf(panel.db);
      expect(n).toBeGreaterThan(window.startedAt);
      expect(n).toBeLessThanOrEqual(window.endedAt);
      expect(n).toBeLessThan(writer.step);
      expect(await databaseChecksum(panel.db)).toEqual({ ...initial, ...writer.touchedAfter.get(n) });
      expect((await pendingMigrations(panel.db)).pending).toEqual([]);
    } finally {
      await panel.close();
    }
  }, 120_000);
});
