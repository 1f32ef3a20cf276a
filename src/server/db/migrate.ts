import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from "kysely";
import * as initialSchema from "./migrations/001-initial-schema.ts";
import * as appSecrets from "./migrations/002-app-secrets.ts";
import * as errorLogCounts from "./migrations/003-error-log-counts.ts";
import * as vendorSearch from "./migrations/004-vendor-search.ts";
import * as vendorSearchKeys from "./migrations/005-vendor-search-keys.ts";
import * as vendorSearchGinFastupdateOff from "./migrations/006-vendor-search-gin-fastupdate-off.ts";
import * as jobsAuditExports from "./migrations/007-jobs-audit-exports.ts";

/** Forward-only migrations, in order. Add new files; never edit a released one. */
const migrations: Record<string, Migration> = {
  "001-initial-schema": initialSchema,
  "002-app-secrets": appSecrets,
  "003-error-log-counts": errorLogCounts,
  "004-vendor-search": vendorSearch,
  "005-vendor-search-keys": vendorSearchKeys,
  "006-vendor-search-gin-fastupdate-off": vendorSearchGinFastupdateOff,
  "007-jobs-audit-exports": jobsAuditExports,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before table types are meaningful
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // On PostgreSQL the migrator must be told its schema: otherwise it takes a kysely_migration table
  // in ANY schema (another tenant's, another test's) as its own and skips creating it.
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: false, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? "unknown error");
    throw new Error(`Database migration ${failed?.migrationName ?? ""} failed: ${reason}`);
  }
}
