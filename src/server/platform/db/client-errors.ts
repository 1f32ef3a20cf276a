import SQLite from "better-sqlite3";
import type { CompiledQuery, DatabaseConnection, DatabaseIntrospector, Dialect, DialectAdapter, Driver, Kysely, QueryCompiler, QueryResult, TransactionSettings } from "kysely";
import pg from "pg";

/**
 * Which errors come from the database clients. Only these can be database outages
 * (http/database-errors.ts): a request's own socket reset (ECONNRESET) or a provider's unreachable
 * host (ECONNREFUSED) carries the same codes as a lost database connection, and must not be
 * answered or logged as one.
 *
 * An error counts when it is one of the clients' own error classes (better-sqlite3's SqliteError,
 * pg's DatabaseError), or when it left the database driver: every Kysely driver call goes through
 * `markingDialect`, which marks what it throws (pg's connection errors are plain Errors and Node
 * socket errors: "Connection terminated unexpectedly", ECONNREFUSED, the pool's connect timeout).
 */
const fromDatabaseClient = new WeakSet<object>();

function mark(err: unknown): unknown {
  if (err !== null && typeof err === "object") fromDatabaseClient.add(err);
  return err;
}

/**
 * An error rebuilt from one a database client threw in another thread (the storefront events'
 * writer thread, features/integrations/storefront-events.thread.ts): it counts as the client's.
 */
export function markAsDatabaseClientError<E extends Error>(err: E): E {
  fromDatabaseClient.add(err);
  return err;
}

export function isDatabaseClientError(err: unknown): boolean {
  if (err === null || typeof err !== "object") return false;
  return fromDatabaseClient.has(err) || err instanceof SQLite.SqliteError || err instanceof pg.DatabaseError;
}

async function marked<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw mark(err);
  }
}

class MarkingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return marked(() => this.inner.executeQuery<R>(compiledQuery));
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    try {
      yield* this.inner.streamQuery<R>(compiledQuery, chunkSize);
    } catch (err) {
      throw mark(err);
    }
  }
}

const innerOf = (connection: DatabaseConnection) => (connection instanceof MarkingConnection ? connection.inner : connection);

class MarkingDriver implements Driver {
  savepoint?: Driver["savepoint"];
  rollbackToSavepoint?: Driver["rollbackToSavepoint"];
  releaseSavepoint?: Driver["releaseSavepoint"];

  constructor(private readonly inner: Driver) {
    const savepoints = ["savepoint", "rollbackToSavepoint", "releaseSavepoint"] as const;
    for (const name of savepoints) {
      const method = inner[name]?.bind(inner);
      if (method) this[name] = (connection, savepointName, compileQuery) => marked(() => method(innerOf(connection), savepointName, compileQuery));
    }
  }

  init(): Promise<void> {
    return marked(() => this.inner.init());
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new MarkingConnection(await marked(() => this.inner.acquireConnection()));
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return marked(() => this.inner.beginTransaction(innerOf(connection), settings));
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return marked(() => this.inner.commitTransaction(innerOf(connection)));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return marked(() => this.inner.rollbackTransaction(innerOf(connection)));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return marked(() => this.inner.releaseConnection(innerOf(connection)));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/** The dialect with every error its driver throws marked as the database client's. */
export function markingDialect(dialect: Dialect): Dialect {
  return {
    createDriver: (): Driver => new MarkingDriver(dialect.createDriver()),
    createQueryCompiler: (): QueryCompiler => dialect.createQueryCompiler(),
    createAdapter: (): DialectAdapter => dialect.createAdapter(),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Dialect's own signature
    createIntrospector: (db: Kysely<any>): DatabaseIntrospector => dialect.createIntrospector(db),
  };
}
