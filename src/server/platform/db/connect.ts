import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { DatabaseConfig } from "../config/config.ts";
import { ChangeFeed } from "./change-feed.ts";
import { markingDialect } from "./client-errors.ts";
import type { DB } from "./schema.ts";
import { RetryingSqliteDialect, SQLITE_BUSY_TIMEOUT_MS } from "./sqlite-driver.ts";
import { startWalCheckpointer } from "./wal-checkpointer.ts";
import { WriteCounter } from "./write-counter.ts";
import { logEvent, processLog } from "../logging/logger.ts";

export type DatabaseKind = "sqlite" | "postgres";

/** application_name of the panel's PostgreSQL connections (the change feed names its own: FEED_APPLICATION_NAME). */
export const PANEL_APPLICATION_NAME = "hki-admin";

export interface Database {
  kind: DatabaseKind;
  db: Kysely<DB>;
  /** The raw better-sqlite3 handle (SQLite only): for pragmas, checkpoints and query-plan tests. */
  sqlite?: SQLite.Database;
  /**
   * A value that changes whenever data may have changed, for caches of derived answers (read-cache.ts,
   * the session cache). SQLite: rows changed by this connection (`total_changes()`, raw statements
   * included) plus commits by any other connection or process (`PRAGMA data_version`), so it is
   * exact. PostgreSQL: row-changing statements of this process (WriteCounter, at once) plus, once
   * `watchOtherProcesses()` listens, every commit by any process (change-feed.ts, within
   * milliseconds); while that feed is down it never repeats a value, so caches keyed on it miss.
   */
  dataVersion(): string;
  /**
   * dataVersion as the reads begun in one turn of the event loop share it (app.ts gives it to GET and
   * HEAD requests): this process's writes count at once, as in dataVersion, while other processes'
   * commits are looked up once per turn. Every request handled in a turn arrived before the turn
   * began, so an answer reflecting the database as the turn found it is one the request could have
   * got; a commit by another process shows from the next turn on. On SQLite the lookup is a
   * file-lock round trip (two fcntl calls, ~7 µs of a cached dashboard answer's ~85 under load,
   * docs/decisions/0021); on PostgreSQL dataVersion is already in memory and this is dataVersion.
   */
  sharedDataVersion(): string;
  /**
   * True while dataVersion also moves on other processes' commits, so caches keyed on it are exact
   * across processes: always on SQLite; on PostgreSQL while the change feed listens.
   */
  readonly versionCoversOtherProcesses: boolean;
  /**
   * PostgreSQL: starts the change feed (triggers that notify on commit, one listening connection;
   * docs/decisions/0014-caches-across-replicas.md). Rejects when it cannot listen now; it keeps
   * retrying by itself and caches are bypassed meanwhile. SQLite: nothing to do.
   */
  watchOtherProcesses(): Promise<void>;
  /** Work to finish before the connection closes (a thread with its own connection to the same file). */
  onClose(stop: () => Promise<void>): void;
  close(): Promise<void>;
}

// PostgreSQL returns bigint (int8) and numeric as strings; our bigints are cents and counters,
// far below 2^53, so they are parsed to numbers to match what SQLite gives.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

/** `read`'s value, read at most once per turn of the event loop (forgotten in the turn's check phase). */
export function oncePerTurn<T>(read: () => T): () => T {
  let value: T;
  let known = false;
  const forget = () => {
    known = false;
  };
  return () => {
    if (!known) {
      value = read();
      known = true;
      setImmediate(forget).unref();
    }
    return value;
  };
}

/**
 * A missing SQLite file is normally a first start, and is created. But when its WAL or shared-memory
 * files are still there, the database existed and has gone (deleted, unmounted, wrong path): an
 * empty panel must never stand in for it, so the start fails with a clear error instead.
 */
export function refuseVanishedDatabase(path: string): void {
  if (existsSync(path)) return;
  const leftovers = [`${path}-wal`, `${path}-shm`].filter((f) => existsSync(f));
  if (leftovers.length > 0) {
    throw new Error(
      `The SQLite database ${path} is missing but its journal files are present (${leftovers.join(", ")}): ` +
        "refusing to start with an empty database. Restore the file, or delete the journal files to start afresh.",
    );
  }
}

export interface OpenOptions {
  /**
   * SQLite: false for a second connection in a process whose first already runs the WAL
   * checkpointer (the storefront events' writer thread); it never checkpoints either.
   */
  walCheckpointer?: boolean;
}

/** Runs the hooks given to Database.onClose, the latest first. */
function closeHooks(): { add(stop: () => Promise<void>): void; run(): Promise<void> } {
  const hooks: Array<() => Promise<void>> = [];
  return {
    add: (stop) => void hooks.push(stop),
    run: async () => {
      for (const stop of hooks.splice(0).reverse()) await stop();
    },
  };
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Database {
  const hooks = closeHooks();
  if (config.kind === "sqlite") {
    if (config.path !== ":memory:") {
      refuseVanishedDatabase(config.path);
      mkdirSync(dirname(config.path), { recursive: true });
    }
    const sqlite = new SQLite(config.path);
    // WAL lets readers proceed while a writer commits; NORMAL sync is crash-safe for the process
    // (a kill -9 loses nothing committed) and only risks the last commits on power loss.
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    // The log is copied back into the file by a worker thread, never by a commit of a request.
    const checkpointer = config.path === ":memory:" || options.walCheckpointer === false ? null : startWalCheckpointer(config.path);
    if (config.path !== ":memory:") sqlite.pragma("wal_autocheckpoint = 0");
    sqlite.pragma("foreign_keys = ON");
    // A statement that writes several rows inside a transaction copies each page it changes into a
    // statement journal; past 64 KiB SQLite spills that journal to a temporary file, and those writes
    // were a tenth of the server's CPU while events were applied (decision 0023).
    sqlite.pragma("temp_store = memory");
    // A lock held by another connection is waited out asynchronously (sqlite-driver.ts), not here.
    sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    // Errors the driver throws are marked as the database's (client-errors.ts): only those are outages.
    const db = new Kysely<DB>({ dialect: markingDialect(new RetryingSqliteDialect(sqlite)) });
    // Read straight from the handle. Inside another request's open transaction it may count
    // uncommitted changes: that only invalidates early. Two statements, because `total_changes()`
    // alone takes no read transaction (0.1 µs) and the bare pragma is the cheapest way to ask for
    // data_version (~2.8 µs): together ~40 % less than one select joining both (4.3–6.2 µs).
    const changes = sqlite.prepare("select total_changes()").pluck();
    const dataVersion = sqlite.prepare("pragma data_version").pluck();
    const othersCommitsThisTurn = oncePerTurn(() => dataVersion.get() as number);
    return {
      kind: "sqlite",
      db,
      sqlite,
      dataVersion: () => `${changes.get() as number}:${dataVersion.get() as number}`,
      sharedDataVersion: () => `${changes.get() as number}:${othersCommitsThisTurn()}`,
      versionCoversOtherProcesses: true,
      watchOtherProcesses: async () => undefined,
      onClose: hooks.add,
      close: async () => {
        await hooks.run();
        // The checkpointer stops first: the last connection's close then copies what is left.
        await checkpointer?.stop();
        await db.destroy();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    // Per process: WEB_CONCURRENCY processes on each of N hosts open up to N × WEB_CONCURRENCY × this (docs/operations.md "Scaling").
    max: config.poolMax ?? 10,
    connectionTimeoutMillis: 5000,
    // Named, so an operator sees the panel in pg_stat_activity and db:restore can tell it is running (cli/commands.ts).
    application_name: PANEL_APPLICATION_NAME,
    ...(config.searchPath ? { options: `-c search_path=${config.searchPath}` } : {}),
  });
  // An idle client losing its connection (database restart, pg_terminate_backend) emits 'error'
  // on the pool; without a handler that would crash the process.
  pool.on("error", (err) => {
    logEvent(processLog(), "error", "idle PostgreSQL client error", { err });
  });
  // The pool only listens on IDLE clients: one that loses its connection while checked out (mid
  // query) emits 'error' with no listener, an uncaught exception that kills the process. Its query
  // fails anyway (-> 503) and the pool drops the broken client on release.
  pool.on("connect", (client) => {
    client.on("error", (err) => {
      logEvent(processLog(), "error", "PostgreSQL connection lost mid-query", { err });
    });
    // Named with its schema ("hki-admin:public"), so db:restore tells this panel from one on another
    // schema of the same server. Queued ahead of the connection's first query; a failure only leaves the plain name.
    client.query("select set_config('application_name', $1 || current_schema(), false)", [`${PANEL_APPLICATION_NAME}:`]).catch(() => undefined);
  });
  const writes = new WriteCounter();
  const db = new Kysely<DB>({ dialect: markingDialect(new PostgresDialect({ pool })), plugins: [writes] });
  let feed: ChangeFeed | undefined;
  let bypass = 0;
  const dataVersion = () => {
    // No feed (CLIs, tools): this process's writes only, as before the feed existed.
    if (!feed) return String(writes.count);
    // The feed is down: another replica's commit could go unseen, so no cached value may match.
    if (!feed.live) return `down:${++bypass}`;
    return `${feed.epoch}:${writes.count}`;
  };
  return {
    kind: "postgres",
    db,
    dataVersion,
    sharedDataVersion: dataVersion,
    get versionCoversOtherProcesses() {
      return feed?.live ?? false;
    },
    watchOtherProcesses: async () => {
      if (feed) return;
      feed = new ChangeFeed({ connectionString: config.url, ...(config.searchPath ? { searchPath: config.searchPath } : {}) });
      await feed.start();
    },
    onClose: hooks.add,
    close: async () => {
      await hooks.run();
      await feed?.stop();
      await db.destroy();
    },
  };
}
