import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import pg from "pg";
import { openDatabase } from "../platform/db/connect.ts";
import { migrateToLatest } from "../platform/db/migrate.ts";
import type { DB } from "../platform/db/schema.ts";

/**
 * Test databases: an in-memory SQLite always, PostgreSQL too when TEST_DATABASE_URL is set.
 * Each PostgreSQL database lives in its own throw-away schema (search_path set per connection),
 * so test files running in parallel against one server never see each other's rows.
 */
export interface TestDatabase {
  kind: "sqlite" | "postgres";
  db: Kysely<DB>;
  close(): Promise<void>;
}

export interface TestBackend {
  kind: "sqlite" | "postgres";
  open(): Promise<TestDatabase>;
}

async function openSqlite(): Promise<TestDatabase> {
  const database = openDatabase({ kind: "sqlite", path: ":memory:" });
  await migrateToLatest(database.db);
  return { kind: "sqlite", db: database.db, close: database.close };
}

async function openPostgres(url: string): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const u = new URL(url);
  u.searchParams.set("options", `-c search_path=${schema}`);
  const database = openDatabase({ kind: "postgres", url: u.toString() });
  await migrateToLatest(database.db);
  return {
    kind: "postgres",
    db: database.db,
    close: async () => {
      await database.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ kind: "sqlite", open: openSqlite }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push({ kind: "postgres", open: () => openPostgres(url) });
  return backends;
}
