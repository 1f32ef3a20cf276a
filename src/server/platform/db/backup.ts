import { spawnSync } from "node:child_process";
import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import SQLite from "better-sqlite3";
import pg from "pg";
import { FEED_APPLICATION_NAME } from "./change-feed.ts";
import { PANEL_APPLICATION_NAME } from "./connect.ts";

/**
 * Backups and restores of the panel's database (`npm run db:backup`, `npm run db:restore`;
 * docs/operations.md "Backups and restores").
 *
 * SQLite in WAL mode cannot be copied as a file while the panel runs (the newest commits sit in the
 * -wal file, and a copy taken mid-checkpoint is torn), so a backup goes through SQLite's online
 * backup API, in one step: it reads one consistent snapshot under a read transaction, which in WAL
 * mode never blocks the panel's writers, and is never restarted by them. PostgreSQL is dumped by
 * `pg_dump` (custom format, one snapshot) and restored by `pg_restore`.
 */

/** A backup or restore that cannot go on; the message says what to do. */
export class BackupError extends Error {}

/** sqlite3_backup_step's "every remaining page": one step, so one snapshot. */
const ALL_PAGES = 0x7fffffff;

/** Backs the SQLite database at `path` up into `file` (a new file), while the panel may be writing. */
export async function backupSqlite(path: string, file: string): Promise<{ bytes: number }> {
  refuseExisting(file);
  if (!existsSync(path)) throw new BackupError(`There is no database at ${path} to back up (DATABASE_URL).`);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const source = new SQLite(path, { fileMustExist: true });
  try {
    await source.backup(partial, { progress: () => ALL_PAGES });
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    source.close();
  }
  // A backup is one self-contained file: out of WAL mode, so no -wal file belongs with it; and checked.
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    const check = copy.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new BackupError(`The backup failed its check (${String(check)}); ${file} was not written.`);
  } finally {
    copy.close();
  }
  renameSync(partial, file);
  return { bytes: statSync(file).size };
}

/**
 * Whether another connection has the SQLite database open (a running panel, a command): leaving WAL
 * mode needs the only connection, so it fails at once (busy timeout 0) while any other is open. Only
 * asked of a database about to be replaced, so the journal mode it leaves behind does not matter
 * (the panel sets WAL again when it opens the file).
 */
export function sqliteInUse(path: string): boolean {
  if (!existsSync(path)) return false;
  const db = new SQLite(path, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma("journal_mode = DELETE");
    return false;
  } catch (err) {
    if ((err as { code?: string }).code === "SQLITE_BUSY") return true;
    throw err;
  } finally {
    db.close();
  }
}

/** Migrations recorded in a backup file: it must be a panel's database, and intact. */
function checkSqliteBackup(file: string): number {
  if (!existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`${file} cannot be opened as an SQLite database: ${(err as Error).message}`);
  }
  try {
    const check = db.pragma("quick_check", { simple: true });
    if (check !== "ok") throw new BackupError(`${file} is damaged (${String(check)}); nothing was restored.`);
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) throw new BackupError(`${file} is not a backup of the panel's database (no migrations recorded); nothing was restored.`);
    return (db.prepare("select count(*) from kysely_migration").pluck().get() as number) ?? 0;
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a backup of the panel's database: ${(err as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Replaces the SQLite database at `path` with the backup `file`, through the backup API (so even a
 * forced restore under a running panel swaps the content in one transaction its connection sees).
 * Refused while another connection has the database open, unless `force`.
 */
export async function restoreSqlite(file: string, path: string, force: boolean): Promise<{ migrations: number }> {
  const migrations = checkSqliteBackup(file);
  if (!force && sqliteInUse(path)) {
    throw new BackupError(`The database ${path} is open in a running panel (or another command): stop it first, or add --force to restore into it while it runs.`);
  }
  const leftovers = [`${path}-wal`, `${path}-shm`].filter((f) => existsSync(f));
  if (!existsSync(path) && leftovers.length > 0) {
    // Journal files without their database belong to another database: opened with the restored file they would corrupt it.
    if (!force) throw new BackupError(`${path} is missing but its journal files are present (${leftovers.join(", ")}): delete them, or add --force.`);
    for (const f of leftovers) rmSync(f, { force: true });
  }
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(path, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  const restored = new SQLite(path, { fileMustExist: true });
  try {
    restored.pragma("journal_mode = WAL");
  } finally {
    restored.close();
  }
  return { migrations };
}

/**
 * A node-postgres URL as libpq (pg_dump, pg_restore) takes it: the password moved to PGPASSWORD (so
 * it is not on a command line `ps` shows); the query re-encoded with %20 for spaces (libpq does not
 * read `+` as a space, as in `options=-c search_path=…`); node-postgres' own `sslmode=no-verify`
 * spelled as libpq's `require` (encrypted, certificate not checked) and its `ssl=true` as
 * `sslmode=require`; its `uselibpqcompat` dropped.
 */
export function libpqConnection(url: string): { url: string; password: string | undefined } {
  const parsed = new URL(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  const params = new Map(parsed.searchParams);
  const ssl = params.get("ssl");
  params.delete("ssl");
  params.delete("uselibpqcompat");
  if (params.get("sslmode") === "no-verify" || (!params.has("sslmode") && ssl !== undefined && ssl !== "false" && ssl !== "0")) params.set("sslmode", "require");
  const query = [...params].map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join("&");
  const base = `${parsed.protocol}//${parsed.username ? `${parsed.username}@` : ""}${parsed.host}${parsed.pathname}`;
  return { url: query ? `${base}?${query}` : base, password };
}

/** The schema the panel works in: the first of a `-c search_path=` in the URL's `options`, else public. */
export function postgresSchemaOf(url: string): string {
  const options = new URL(url).searchParams.get("options") ?? "";
  return /(?:^|\s)(?:-c\s*|--)search_path=([^\s,]+)/.exec(options)?.[1]?.replace(/^"|"$/g, "") ?? "public";
}

export interface PostgresTool {
  /** The program was found and ran; otherwise `command` is what to run where it is installed. */
  ran: boolean;
  command: string;
}

function quote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function runPostgresTool(program: "pg_dump" | "pg_restore", args: string[], url: string): PostgresTool {
  const connection = libpqConnection(url);
  const fullArgs = [...args, `--dbname=${connection.url}`];
  const command = `${connection.password ? "PGPASSWORD='<the password of DATABASE_URL>' " : ""}${program} ${fullArgs.map(quote).join(" ")}`;
  const probe = spawnSync(program, ["--version"], { encoding: "utf8" });
  if (probe.error) return { ran: false, command };
  const env = { ...process.env, ...(connection.password ? { PGPASSWORD: connection.password } : {}) };
  const run = spawnSync(program, fullArgs, { env, encoding: "utf8", stdio: ["ignore", "inherit", "pipe"] });
  if (run.status !== 0) throw new BackupError(`${program} failed (exit ${String(run.status ?? run.signal)}): ${run.stderr.trim()}`);
  return { ran: true, command };
}

/**
 * `pg_dump` in custom format into `file` (a new file); when pg_dump is not installed, the command to
 * run instead. The panel's database whole when it works in `public` (extensions included, so the
 * dump restores into an empty database); only its schema when the URL puts it in another one.
 */
export function backupPostgres(url: string, file: string): PostgresTool & { bytes: number } {
  refuseExisting(file);
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const schema = postgresSchemaOf(url);
  let tool: PostgresTool;
  try {
    tool = runPostgresTool("pg_dump", ["--format=custom", `--file=${partial}`, ...(schema === "public" ? [] : [`--schema=${schema}`])], url);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  if (!tool.ran) return { ran: false, command: tool.command.replace(partial, file), bytes: 0 };
  renameSync(partial, file);
  return { ...tool, bytes: statSync(file).size };
}

/** Sessions of a panel (its pool's connections and its change feed's) on the database and schema of `url`. */
export async function postgresPanelSessions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: "hki-admin-restore", connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ sessions: number }>(
      `select count(*)::int as sessions from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and application_name in ($1 || current_schema(), $2 || current_schema())`,
      [`${PANEL_APPLICATION_NAME}:`, `${FEED_APPLICATION_NAME}:`],
    );
    return rows[0]?.sessions ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * `pg_restore` of `file` into the database of `url`, in one transaction: what the backup holds is
 * dropped and recreated. Refused while a panel works on that database and schema, unless `force`.
 */
export async function restorePostgres(file: string, url: string, force: boolean): Promise<PostgresTool> {
  if (!existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  if (!force) {
    const sessions = await postgresPanelSessions(url);
    if (sessions > 0) throw new BackupError(`A running panel is connected to this database (${sessions} session(s)): stop it first, or add --force to restore while it runs.`);
  }
  return runPostgresTool("pg_restore", ["--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error", file], url);
}

function refuseExisting(file: string): void {
  if (existsSync(file)) throw new BackupError(`${file} exists already: a backup never overwrites a file; choose a new name.`);
}
