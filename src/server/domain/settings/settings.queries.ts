import type { PlatformSetting, SettingChange, SettingHistoryResponse, SettingKeyName } from "../../../contract/settings.ts";
import type { Transaction } from "kysely";
import type { DB } from "../../platform/db/schema.ts";
import type { DatabaseKind } from "../../platform/db/connect.ts";
import { newId } from "../../platform/db/ids.ts";
import { encodeKeyset } from "../../platform/http/keyset-cursor.ts";
import type { Executor } from "../../platform/db/executor.ts";
import type { Clock } from "../../platform/clock.ts";
import { DEFAULT_FEE_RATE_BASIS_POINTS, SETTINGS_CATALOG, SETTING_KEYS, percentageToBasisPoints, type SettingKey } from "./settings-catalog.ts";

/** Every known setting (eight rows by primary key), in catalog order. */
export async function readSettings(db: Executor): Promise<Record<SettingKey, PlatformSetting>> {
  const rows = await db.selectFrom("platform_settings").selectAll().where("key", "in", SETTING_KEYS).execute();
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const out = {} as Record<SettingKey, PlatformSetting>;
  for (const key of SETTING_KEYS) {
    const row = byKey.get(key);
    // Rows are created at start (ensureDefaultSettings); a missing one is reported as its default.
    out[key] = row
      ? { value: row.value, description: row.description, updatedAt: row.updated_at, updatedBy: row.updated_by }
      : { value: SETTINGS_CATALOG[key].defaultValue, description: SETTINGS_CATALOG[key].description, updatedAt: new Date(0).toISOString(), updatedBy: null };
  }
  return out;
}

/**
 * Writes validated changes with their history rows, inside the caller's transaction. Values equal
 * to the stored one are skipped, so saving an untouched form leaves no history noise. On
 * PostgreSQL the rows are locked first so two admins saving at once each record the true old value.
 * Returns what changed: each key with its old and new value.
 */
export async function writeSettings(
  trx: Transaction<DB>,
  kind: DatabaseKind,
  changes: ReadonlyMap<SettingKey, string>,
  actorEmail: string,
  now: string,
): Promise<Array<{ key: SettingKey; oldValue: string | null; newValue: string }>> {
  const keys = [...changes.keys()];
  let select = trx.selectFrom("platform_settings").select(["key", "value"]).where("key", "in", keys);
  // SQLite has no FOR UPDATE; its single writer already serialises this transaction.
  if (kind === "postgres") select = select.forUpdate();
  const current = new Map((await select.execute()).map((r) => [r.key, r.value]));
  const written: Array<{ key: SettingKey; oldValue: string | null; newValue: string }> = [];
  for (const [key, value] of changes) {
    const old = current.get(key);
    if (old === value) continue;
    await trx
      .insertInto("platform_settings")
      .values({ key, value, description: SETTINGS_CATALOG[key].description, updated_at: now, updated_by: actorEmail })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now, updated_by: actorEmail }))
      .execute();
    await trx
      .insertInto("platform_setting_changes")
      .values({ id: newId(), key, old_value: old ?? null, new_value: value, changed_by: actorEmail, changed_at: now })
      .execute();
    written.push({ key, oldValue: old ?? null, newValue: value });
  }
  return written;
}

/** One page of a setting's change history, newest first (index setting_changes_key_idx). */
export async function readSettingHistory(db: Executor, key: SettingKeyName, limit: number, after: { changedAt: string; id: string } | undefined): Promise<SettingHistoryResponse> {
  let query = db
    .selectFrom("platform_setting_changes")
    .selectAll()
    .where("key", "=", key)
    .orderBy("changed_at", "desc")
    .orderBy("id", "desc")
    .limit(limit + 1);
  if (after !== undefined) {
    const { changedAt, id } = after;
    // A row-value comparison lets both engines seek the (key, changed_at) index instead of filtering an OR.
    query = query.where((eb) => eb(eb.refTuple("changed_at", "id"), "<", eb.tuple(changedAt, id)));
  }
  const rows = await query.execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const changes: SettingChange[] = page.map((r) => ({
    id: r.id,
    key,
    oldValue: r.old_value,
    newValue: r.new_value,
    changedBy: r.changed_by,
    changedAt: r.changed_at,
  }));
  return { key, changes, nextCursor: rows.length > limit && last ? encodeKeyset([last.changed_at, last.id]) : null };
}

/** Inserts the known settings that are missing with their defaults; never overwrites a stored value. */
export async function ensureDefaultSettings(db: Executor, clock: Clock): Promise<void> {
  const now = clock.now().toISOString();
  await db
    .insertInto("platform_settings")
    .values(
      SETTING_KEYS.map((key) => ({
        key,
        value: SETTINGS_CATALOG[key].defaultValue,
        description: SETTINGS_CATALOG[key].description,
        updated_at: now,
        updated_by: null,
      })),
    )
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
}

/** The platform fee rate new orders are charged at, in basis points (platform_fee_percentage × 100). */
export async function currentFeeRateBasisPoints(db: Executor): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "platform_fee_percentage").executeTakeFirst();
  return (row && percentageToBasisPoints(row.value)) ?? DEFAULT_FEE_RATE_BASIS_POINTS;
}

/** The monthly subscription fee new subscriptions start at, in cents. */
export async function currentMonthlySubscriptionFeeCents(db: Executor): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "monthly_subscription_fee").executeTakeFirst();
  const dollars = Number(row?.value ?? SETTINGS_CATALOG.monthly_subscription_fee.defaultValue);
  return Number.isFinite(dollars) && dollars >= 0 ? Math.round(dollars * 100) : 2999;
}

/** Who pays Stripe's fee of a lost dispute now (docs/product.md §19.7): the platform unless the setting says artist. */
export async function currentDisputeFeePayer(db: Executor): Promise<"platform" | "artist"> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "dispute_fee_paid_by").executeTakeFirst();
  return row?.value === "artist" ? "artist" : "platform";
}

/** The minimum_payout_amount in force, in cents (docs/product.md §15): a run pays balances at least this large. */
export async function currentMinimumPayoutCents(db: Executor): Promise<number> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", "minimum_payout_amount").executeTakeFirst();
  const value = row?.value ?? SETTINGS_CATALOG.minimum_payout_amount.defaultValue;
  const dollars = Number(value);
  return Number.isFinite(dollars) && dollars >= 0 ? Math.round(dollars * 100) : 2500;
}

/**
 * The platform fee rate in force at `at` (an order paid then is charged it): the old value of the
 * first change after `at`, or the current value when none came after (setting_changes_key_idx).
 */
export async function feeRateBasisPointsAt(db: Executor, at: string): Promise<number> {
  return (await feeRatesBasisPointsAt(db, [at])).get(at)!;
}

/** One setting's stored value, or its default when the row is missing (a primary-key read). */
export async function readSettingValue(db: Executor, key: SettingKey): Promise<string> {
  const row = await db.selectFrom("platform_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value ?? SETTINGS_CATALOG[key].defaultValue;
}

/**
 * The fee rate in force at each of several times, with one read of the fee's changes after the
 * earliest: each time gets the old value of the first change after it, or the current rate. Times
 * are compared as the ISO text both they and changed_at are stored in.
 */
export async function feeRatesBasisPointsAt(db: Executor, times: readonly string[]): Promise<Map<string, number>> {
  const rates = new Map<string, number>();
  if (times.length === 0) return rates;
  const earliest = times.reduce((a, b) => (b < a ? b : a));
  const changes = await db
    .selectFrom("platform_setting_changes")
    .select(["changed_at", "old_value"])
    .where("key", "=", "platform_fee_percentage")
    .where("changed_at", ">", earliest)
    .orderBy("changed_at")
    .execute();
  let current: number | undefined;
  for (const at of new Set(times)) {
    const later = changes.find((c) => c.changed_at > at);
    if (later) rates.set(at, (later.old_value === null ? null : percentageToBasisPoints(later.old_value)) ?? DEFAULT_FEE_RATE_BASIS_POINTS);
    else rates.set(at, (current ??= await currentFeeRateBasisPoints(db)));
  }
  return rates;
}
