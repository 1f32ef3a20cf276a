import { type Kysely, sql, type Transaction } from "kysely";
import type { DB } from "./schema.ts";

/** A database handle or an open transaction: ledger functions accept either. */
export type Executor = Kysely<DB> | Transaction<DB>;

/**
 * Runs `fn` inside a transaction: the caller's one when it already holds a transaction (so a
 * route can group several ledger calls atomically), otherwise a new one. Rows and the rollups
 * that summarise them are always written together, never one without the other.
 */
export async function inTransaction<T>(db: Executor, fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Transaction<DB>);
  return db.transaction().execute(fn);
}

/**
 * Runs `fn` inside the caller's open transaction so that, should it throw, what it wrote is undone
 * and the transaction goes on (a savepoint, on SQLite and PostgreSQL alike). Savepoints nest, so
 * one name serves every level.
 */
export async function inSavepoint<T>(trx: Executor, fn: (trx: Executor) => Promise<T>): Promise<T> {
  if (!trx.isTransaction) throw new Error("inSavepoint needs an open transaction");
  await sql`savepoint unit`.execute(trx);
  let result: T;
  try {
    result = await fn(trx);
  } catch (err) {
    await sql`rollback to savepoint unit`.execute(trx);
    await sql`release savepoint unit`.execute(trx);
    throw err;
  }
  await sql`release savepoint unit`.execute(trx);
  return result;
}

/** Largest number of rows a single bulk statement touches (docs/product.md §12.3: short write locks). */
export const CHUNK_ROWS = 2000;
