import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { systemClock } from "../platform/clock.ts";
import type { AppConfig } from "../platform/config/config.ts";
import { BackupError, backupPostgres, backupSqlite, restorePostgres, restoreSqlite } from "../platform/db/backup.ts";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest, pendingMigrations } from "../platform/db/migrate.ts";
import { runUserCreate } from "./user-create-command.ts";

/**
 * The operator's commands, run by the server's own entry (`node dist/server/main.js <command>`, what
 * `npm run <command>` and the Docker image run), on the configured database (DATABASE_URL, .env):
 *
 * - `db:migrate`: runs the pending migrations and exits (a release step before the new version
 *   starts; `npm start` still migrates when nothing else did).
 * - `db:backup FILE`: a backup while the panel runs (platform/db/backup.ts).
 * - `db:restore FILE [--force]`: replaces the database with a backup; refused while a panel has it
 *   open, unless --force.
 * - `user:create`: see user-create-command.ts.
 *
 * Each returns the exit code: 0 done, 1 failed, 2 bad arguments.
 */
export const COMMANDS = {
  "db:migrate": "npm run db:migrate",
  "db:backup": "npm run db:backup -- FILE",
  "db:restore": "npm run db:restore -- FILE [--force]",
  "user:create": "npm run user:create -- --email E --password P [--role admin|viewer|user] [--name N] [--update]",
} as const;

export interface CommandOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

const consoleOutput: CommandOutput = { out: (line) => console.log(line), err: (line) => console.error(line) };

export async function runCommand(name: string, args: string[], config: AppConfig, io: CommandOutput = consoleOutput): Promise<number> {
  try {
    switch (name) {
      case "db:migrate":
        return await migrate(args, config, io);
      case "db:backup":
        return await backup(args, config, io);
      case "db:restore":
        return await restore(args, config, io);
      case "user:create":
        return await userCreate(args, config, io);
      default:
        io.err(`Unknown command "${name}". Commands:\n  ${Object.values(COMMANDS).join("\n  ")}`);
        return 2;
    }
  } catch (err) {
    io.err(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

function databaseName(config: AppConfig): string {
  if (config.database.kind === "sqlite") return `SQLite ${config.database.path}`;
  const url = new URL(config.database.url);
  return `PostgreSQL ${url.host}${url.pathname}`;
}

async function migrate(args: string[], config: AppConfig, io: CommandOutput): Promise<number> {
  if (args.length > 0) return usage("db:migrate", `takes no arguments (got ${args.join(" ")})`, io);
  const database = openDatabase(config.database);
  try {
    const before = await pendingMigrations(database.db);
    await migrateToLatest(database.db);
    const after = await pendingMigrations(database.db);
    const applied = before.pending.filter((name) => !after.pending.includes(name));
    io.out(
      applied.length === 0
        ? `db:migrate: ${databaseName(config)} is up to date (${before.known} migrations).`
        : `db:migrate: applied ${applied.length} migration(s) to ${databaseName(config)}: ${applied.join(", ")}.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

function fileArgument(command: keyof typeof COMMANDS, args: string[], io: CommandOutput): { file: string; force: boolean } | number {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { force: { type: "boolean", default: false } }, allowPositionals: true, strict: true });
  } catch (err) {
    return usage(command, err instanceof Error ? err.message : String(err), io);
  }
  if (parsed.positionals.length !== 1) return usage(command, "needs one FILE", io);
  if (command === "db:backup" && parsed.values.force) return usage(command, "has no --force: a backup never overwrites a file", io);
  // Under `npm run` the working directory is the project; INIT_CWD is where the operator typed the command.
  return { file: resolve(process.env.INIT_CWD ?? process.cwd(), parsed.positionals[0]!), force: parsed.values.force ?? false };
}

function usage(command: keyof typeof COMMANDS, problem: string, io: CommandOutput): number {
  io.err(`${command} ${problem}.\nUsage: ${COMMANDS[command]}`);
  return 2;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

async function backup(args: string[], config: AppConfig, io: CommandOutput): Promise<number> {
  const parsed = fileArgument("db:backup", args, io);
  if (typeof parsed === "number") return parsed;
  const { file } = parsed;
  if (config.database.kind === "sqlite") {
    if (config.database.path === ":memory:") return usage("db:backup", "cannot back up an in-memory database", io);
    const { bytes } = await backupSqlite(config.database.path, file);
    io.out(`db:backup: backed up ${databaseName(config)} to ${file} (${megabytes(bytes)}).`);
    return 0;
  }
  const result = backupPostgres(config.database.url, file);
  if (!result.ran) {
    io.err(`db:backup: pg_dump is not installed here. Run, where it is (PostgreSQL's client tools, the server's major version or newer):\n  ${result.command}`);
    return 1;
  }
  io.out(`db:backup: backed up ${databaseName(config)} to ${file} (pg_dump custom format, ${megabytes(result.bytes)}).`);
  return 0;
}

async function restore(args: string[], config: AppConfig, io: CommandOutput): Promise<number> {
  const parsed = fileArgument("db:restore", args, io);
  if (typeof parsed === "number") return parsed;
  const { file, force } = parsed;
  try {
    if (config.database.kind === "sqlite") {
      if (config.database.path === ":memory:") return usage("db:restore", "cannot restore into an in-memory database", io);
      const { migrations } = await restoreSqlite(file, config.database.path, force);
      io.out(`db:restore: restored ${file} into ${databaseName(config)} (${migrations} migrations recorded; the next start or db:migrate applies any newer ones).`);
      return 0;
    }
    const result = await restorePostgres(file, config.database.url, force);
    if (!result.ran) {
      io.err(`db:restore: pg_restore is not installed here. Run, where it is:\n  ${result.command}`);
      return 1;
    }
    io.out(`db:restore: restored ${file} into ${databaseName(config)} (the next start or db:migrate applies any newer migrations).`);
    return 0;
  } catch (err) {
    if (err instanceof BackupError) {
      io.err(`db:restore: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

async function userCreate(args: string[], config: AppConfig, io: CommandOutput): Promise<number> {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    return await runUserCreate(args, database.db, systemClock, { out: io.out, err: (line) => io.err(line) });
  } finally {
    await database.close();
  }
}
