import { type Kysely, type Migration, type MigrationProvider, Migrator, PostgresAdapter, sql } from "kysely";
import * as initialSchema from "./migrations/001-initial-schema.ts";
import * as appSecrets from "./migrations/002-app-secrets.ts";
import * as errorLogCounts from "./migrations/003-error-log-counts.ts";
import * as vendorSearch from "./migrations/004-vendor-search.ts";
import * as vendorSearchKeys from "./migrations/005-vendor-search-keys.ts";
import * as vendorSearchGinFastupdateOff from "./migrations/006-vendor-search-gin-fastupdate-off.ts";
import * as jobsAuditExports from "./migrations/007-jobs-audit-exports.ts";
import * as staffInvitationsMail from "./migrations/008-staff-invitations-mail.ts";
import * as financialsPayouts from "./migrations/009-financials-payouts.ts";
import * as hardening from "./migrations/010-hardening.ts";
import * as payoutUnknownOutcomes from "./migrations/011-payout-unknown-outcomes.ts";
import * as mailOutboxSecrets from "./migrations/012-mail-outbox-secrets.ts";
import * as productsCatalogue from "./migrations/013-products-catalogue.ts";
import * as announcements from "./migrations/014-announcements.ts";
import * as featuredAndTopLists from "./migrations/015-featured-and-top-lists.ts";
import * as listSorts from "./migrations/016-list-sorts.ts";
import * as periodWindowSteps from "./migrations/017-period-window-steps.ts";
import * as productsNameInSortIndexes from "./migrations/018-products-name-in-sort-indexes.ts";
import * as productSearchStatus from "./migrations/019-product-search-status.ts";
import * as catalogueVersion from "./migrations/020-catalogue-version.ts";
import * as vendorSearchVersion from "./migrations/021-vendor-search-version.ts";
import * as payoutStateVersion from "./migrations/022-payout-state-version.ts";
import * as storefrontIntegration from "./migrations/023-storefront-integration.ts";
import * as webhooksOut from "./migrations/024-webhooks-out.ts";
import * as incomingWebhooks from "./migrations/025-incoming-webhooks.ts";
import * as ordersScreen from "./migrations/026-orders-screen.ts";
import * as twoStepSignIn from "./migrations/027-two-step-sign-in.ts";
import * as refundsDisputes from "./migrations/028-refunds-disputes.ts";
import * as staffSecondFactor from "./migrations/029-staff-second-factor.ts";
import * as artistReview from "./migrations/030-artist-review.ts";
import * as passkeys from "./migrations/031-passkeys.ts";
import * as catalogueVersionPrices from "./migrations/032-catalogue-version-prices.ts";
import * as productSearchApart from "./migrations/033-product-search-apart.ts";
import * as vendorHtmlShown from "./migrations/034-vendor-html-shown.ts";

/** Forward-only migrations, in order. Add new files; never edit a released one. */
const migrations: Record<string, Migration> = {
  "001-initial-schema": initialSchema,
  "002-app-secrets": appSecrets,
  "003-error-log-counts": errorLogCounts,
  "004-vendor-search": vendorSearch,
  "005-vendor-search-keys": vendorSearchKeys,
  "006-vendor-search-gin-fastupdate-off": vendorSearchGinFastupdateOff,
  "007-jobs-audit-exports": jobsAuditExports,
  "008-staff-invitations-mail": staffInvitationsMail,
  "009-financials-payouts": financialsPayouts,
  "010-hardening": hardening,
  "011-payout-unknown-outcomes": payoutUnknownOutcomes,
  "012-mail-outbox-secrets": mailOutboxSecrets,
  "013-products-catalogue": productsCatalogue,
  "014-announcements": announcements,
  "015-featured-and-top-lists": featuredAndTopLists,
  "016-list-sorts": listSorts,
  "017-period-window-steps": periodWindowSteps,
  "018-products-name-in-sort-indexes": productsNameInSortIndexes,
  "019-product-search-status": productSearchStatus,
  "020-catalogue-version": catalogueVersion,
  "021-vendor-search-version": vendorSearchVersion,
  "022-payout-state-version": payoutStateVersion,
  "023-storefront-integration": storefrontIntegration,
  "024-webhooks-out": webhooksOut,
  "025-incoming-webhooks": incomingWebhooks,
  "026-orders-screen": ordersScreen,
  "027-two-step-sign-in": twoStepSignIn,
  "028-refunds-disputes": refundsDisputes,
  "029-staff-second-factor": staffSecondFactor,
  "030-artist-review": artistReview,
  "031-passkeys": passkeys,
  "032-catalogue-version-prices": catalogueVersionPrices,
  "033-product-search-apart": productSearchApart,
  "034-vendor-html-shown": vendorHtmlShown,
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

/**
 * Names of the migrations this build knows that the database has not run (readiness, /api/ready).
 * Reads the migration table only; throws when the database does not answer.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as migrateToLatest
export async function pendingMigrations(db: Kysely<any>): Promise<{ pending: string[]; known: number }> {
  let migrationTableSchema: string | undefined;
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = rows[0]?.schema;
  }
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  const all = await migrator.getMigrations();
  return { pending: all.filter((m) => m.executedAt === undefined).map((m) => m.name), known: all.length };
}
