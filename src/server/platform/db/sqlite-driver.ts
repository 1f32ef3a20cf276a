import type SQLite from "better-sqlite3";
import { CompiledQuery, SelectQueryNode, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from "kysely";
import { sqliteBusyRetries } from "../metrics/metrics.ts";

/**
 * How long a write waits in total for a lock held by another connection (another process on the
 * same file: a CLI, a backup, a second replica) before it fails with SQLITE_BUSY -> 503.
 */
export const SQLITE_LOCK_BUDGET_MS = 5000;
/**
 * better-sqlite3 is synchronous: SQLite's own busy_timeout waits INSIDE the call and so blocks the
 * whole event loop (every read stalls behind one waiting write). The in-engine wait is kept tiny
 * and the real waiting happens here, between attempts, on a timer.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 0;
// Transactions are short (~1 ms): a first pause of a few ms catches most locks, not a 10 ms sleep.
const FIRST_PAUSE_MS = 2;
const MAX_PAUSE_MS = 50;

export function isSqliteBusy(err: unknown): boolean {
  const code = String((err as { code?: unknown } | null)?.code ?? "");
  return code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_") || code === "SQLITE_LOCKED" || code.startsWith("SQLITE_LOCKED_");
}

/** The pauses of this thread's writes waiting for the lock, each one's waker (retryLockWaitsNow). */
const lockPauses = new Set<() => void>();

function lockPause(ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      lockPauses.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    lockPauses.add(wake);
  });
}

/**
 * Another connection of this process has just let the write lock go (the writer thread committed
 * a batch): every write of this thread waiting for it tries again at once, within the current
 * turn's microtasks, instead of at the end of its pause, when the lock may well be taken again.
 */
export function retryLockWaitsNow(): void {
  for (const wake of [...lockPauses]) wake();
}

/** One waiter at a time, FIFO enough for a single-connection driver. */
class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  async lock(): Promise<void> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.release = release;
  }

  unlock(): void {
    const release = this.release;
    this.release = null;
    release?.();
  }
}

/**
 * Prepared statements kept per SQL text. Preparing is a large share of a small read's cost
 * (an uncached dashboard request costs 0.59 ms of CPU with it, 1.39 ms without), and an
 * app issues a few hundred distinct statements. Bounded: IN lists of varying length each make a
 * text of their own; the oldest entry goes first. SQLite re-prepares a cached statement itself
 * when the schema changes.
 */
export const STATEMENT_CACHE_SIZE = 500;

class RetryingConnection implements DatabaseConnection {
  inTransaction = false;
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly mutex: Mutex,
  ) {}

  private prepared(sqlText: string): SQLite.Statement {
    let stmt = this.statements.get(sqlText);
    if (!stmt) {
      stmt = this.sqlite.prepare(sqlText);
      if (this.statements.size >= STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sqlText, stmt);
    }
    return stmt;
  }

  /** Runs `attempt`; on SQLITE_BUSY gives the connection back, waits on a timer and tries again. */
  async withBusyRetry<T>(attempt: () => T): Promise<T> {
    const deadline = Date.now() + SQLITE_LOCK_BUDGET_MS;
    let pause = FIRST_PAUSE_MS;
    for (;;) {
      try {
        return attempt();
      } catch (err) {
        // Inside a transaction we already hold the write lock (BEGIN IMMEDIATE); a busy error
        // there cannot be waited out statement by statement, so it fails the transaction.
        if (!isSqliteBusy(err) || this.inTransaction || Date.now() + pause > deadline) throw err;
      }
      sqliteBusyRetries.inc();
      // Release the single connection while waiting so reads keep being answered meanwhile.
      this.mutex.unlock();
      await lockPause(pause);
      await this.mutex.lock();
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.withBusyRetry(() => {
      // Safe to reuse: all() and run() finish before returning (streamQuery prepares its own).
      const stmt = this.prepared(compiledQuery.sql);
      const parameters = compiledQuery.parameters as unknown[];
      if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
      const { changes, lastInsertRowid } = stmt.run(parameters);
      return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
    });
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(compiledQuery.query)) throw new Error("SQLite driver only supports streaming of select queries");
    const stmt = this.sqlite.prepare(compiledQuery.sql);
    for (const row of stmt.iterate(compiledQuery.parameters as unknown[])) yield { rows: [row as R] };
  }
}

/**
 * Kysely's SqliteDriver, with two changes: transactions start with BEGIN IMMEDIATE (the write lock
 * is taken up front, so a transaction never fails half-way on a lock), and a busy lock is waited
 * out asynchronously with the connection released, instead of inside SQLite's blocking busy wait.
 */
class RetryingSqliteDriver implements Driver {
  private readonly mutex = new Mutex();
  private readonly connection: RetryingConnection;

  constructor(private readonly sqlite: SQLite.Database) {
    this.connection = new RetryingConnection(sqlite, this.mutex);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.mutex.lock();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    const conn = connection as RetryingConnection;
    await conn.withBusyRetry(() => this.sqlite.exec("begin immediate"));
    conn.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const conn = connection as RetryingConnection;
    try {
      this.sqlite.exec("commit");
    } finally {
      // A failed COMMIT (e.g. disk full) leaves the transaction open; Kysely then rolls back.
      conn.inTransaction = this.sqlite.inTransaction;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) this.sqlite.exec("rollback");
    (connection as RetryingConnection).inTransaction = false;
  }

  async releaseConnection(): Promise<void> {
    this.mutex.unlock();
  }

  async destroy(): Promise<void> {
    this.sqlite.close();
  }
}

export class RetryingSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new RetryingSqliteDriver(this.sqlite);
  }
}
