import { type Clock, systemClock } from "../platform/clock.ts";
import { COUNTERS, type CounterName, incrementCounters } from "../domain/ledger/counters.ts";
import { feeCents } from "../domain/ledger/orders.ts";
import { addToBalanceTotals } from "../domain/ledger/payouts.ts";
import { addToDailyPlatformTotals, type PlatformDayDeltas } from "../domain/ledger/rollups.ts";
import { PERIOD_WINDOW_DAYS } from "../domain/ledger/period-totals.ts";
import type { PayoutAccountStatus } from "../platform/db/schema.ts";
import { DEFAULT_FEE_RATE_BASIS_POINTS } from "../domain/settings/settings-catalog.ts";
import { ensureDefaultSettings } from "../domain/settings/settings.queries.ts";
import { recountVendorsOverProductLimit } from "../domain/ledger/product-limit.ts";
import { DEMO_HIDE_REASONS } from "./demo-catalogue.ts";
import { generateAuditRows } from "./audit-samples.ts";
import { sampleCustomCss, sampleCustomHtml } from "./customization.ts";
import { customHtmlColumns } from "../domain/customization/sanitize-customization.ts";
import { sampleArchive, sampleErrorLog } from "./error-log-samples.ts";
import { aboutText, emailFor, PALETTES, personName, productName, productPriceCents, slugify, storeName, THEMES } from "./names.ts";
import { DAY_MS, Random, startOfUtcDay } from "./random.ts";
import { type BulkTarget, createRowSink } from "./row-sink.ts";

export interface GenerateOptions {
  vendors: number;
  products: number;
  orders: number;
  errorLogs: number;
  /** Orders, joins and error logs spread over this many days up to now. */
  days: number;
  seed?: number;
  clock?: Clock;
  /** Days of store visits per vendor, ending today (a row per vendor per day adds up fast). Default 30. */
  visitDays?: number;
  /** Audit-log rows to write (default: as many as error logs; a million at the target data set). */
  auditRows?: number;
  onProgress?: (message: string) => void;
}

export interface GenerateSummary {
  vendors: number;
  products: number;
  orders: number;
  errorLogs: number;
  rows: number;
  seconds: number;
}

function tuneSqliteForBulkLoad(database: BulkTarget): () => void {
  const sqlite = database.sqlite;
  if (!sqlite) return () => {};
  const cacheSize = sqlite.pragma("cache_size", { simple: true }) as number;
  const synchronous = sqlite.pragma("synchronous", { simple: true }) as number;
  const autoCheckpoint = sqlite.pragma("wal_autocheckpoint", { simple: true }) as number;
  sqlite.pragma("cache_size = -1048576");
  sqlite.pragma("synchronous = OFF");
  // The load's own commits copy the log back (SQLite's default, every 1,000 pages). The WAL
  // checkpointer thread (decision 0020) never caught up with back-to-back bulk commits, and the log
  // is only started again once it has: it grew without bound (26 GB after 8,000 of the target
  // data set's 50,000 vendors).
  sqlite.pragma("wal_autocheckpoint = 1000");
  return () => {
    sqlite.pragma(`cache_size = ${cacheSize}`);
    sqlite.pragma(`synchronous = ${synchronous}`);
    sqlite.pragma(`wal_autocheckpoint = ${autoCheckpoint}`);
  };
}

/** Splits `total` into integer parts proportional to `weights` that add up to exactly `total`. */
function spread(total: number, weights: Float64Array): Int32Array {
  const sum = weights.reduce((s, w) => s + w, 0);
  const out = new Int32Array(weights.length);
  if (sum === 0) return out;
  let cum = 0;
  let given = 0;
  for (let i = 0; i < weights.length; i++) {
    cum += weights[i] ?? 0;
    const upTo = Math.floor((cum / sum) * total + 1e-9);
    out[i] = upTo - given;
    given = upTo;
  }
  return out;
}

/** Past monthly payout runs the generated platform has had (days before today), paying active accounts owed ≥ $25. */
const PAYOUT_RUN_DAYS_AGO = [90, 60, 30] as const;
const GENERATED_MINIMUM_PAYOUT_CENTS = 2500;

interface DayAcc {
  gross: number;
  orders: number;
  fees: number;
  items: number;
}

/**
 * Writes a large data set for benchmarks: raw rows in big batches, with every rollup and counter
 * accumulated in memory and written alongside, so the result equals recomputeRollups. Vendors
 * are generated one at a time with their products and orders, so per-vendor rollups (product
 * totals, daily vendor totals, vendor_totals) are final when written and memory stays flat;
 * platform days and counters are added at the end. Adds to what is there (slugs carry the seed).
 */
export async function generateLargeDataset(database: BulkTarget, options: GenerateOptions): Promise<GenerateSummary> {
  const started = Date.now();
  const seed = options.seed ?? 1;
  const rand = new Random(seed);
  const clock = options.clock ?? systemClock;
  const nowMs = clock.now().getTime();
  const today = startOfUtcDay(new Date(nowMs));
  const startMs = today - Math.max(1, options.days) * DAY_MS;
  const visitDays = options.visitDays ?? 30;
  const progress = options.onProgress ?? (() => {});
  const iso = (ms: number) => new Date(ms).toISOString();
  const sink = createRowSink(database);
  // Bulk loading into indexes keyed by random-looking ids thrashes SQLite's default 2 MB page
  // cache; a large cache and no fsync per batch make it several times faster. Restored after.
  const restorePragmas = tuneSqliteForBulkLoad(database);

  // Products vary per store; orders are skewed (a few stores sell most), only stores with products sell.
  const shape = new Random(seed ^ 0x5bd1e995);
  const productsPer = spread(
    options.products,
    Float64Array.from({ length: options.vendors }, () => 0.3 + shape.next() * 1.4),
  );
  const orderWeights = Float64Array.from({ length: options.vendors }, (_, i) => ((productsPer[i] ?? 0) > 0 ? 0.1 + shape.next() ** 2 * 3 : 0));
  const ordersPer = spread(options.orders, orderWeights);

  const platformDays = new Map<string, PlatformDayDeltas>();
  const addDay = (day: string, d: PlatformDayDeltas) => {
    const cur = platformDays.get(day) ?? {};
    for (const [k, v] of Object.entries(d) as [keyof PlatformDayDeltas, number][]) cur[k] = (cur[k] ?? 0) + v;
    platformDays.set(day, cur);
  };
  const counters: Partial<Record<CounterName, number>> = {};
  const count = (name: CounterName, delta: number) => {
    counters[name] = (counters[name] ?? 0) + delta;
  };
  const oneYearAgo = today - 365 * DAY_MS;
  // Payout accounts and history come from their own PRNG, so the rest of the data set is unchanged.
  const money = new Random(seed ^ 0x2545f491);
  const moderation = new Random(seed ^ 0x21c0ffee);
  // Listings still waiting for review (docs/product.md §20.4), from their own PRNG: the bench's 'review queue' row reads them.
  const review = new Random(seed ^ 0x5e71e3);
  const runs = PAYOUT_RUN_DAYS_AGO.map((d) => today - d * DAY_MS + 10 * 3_600_000)
    .filter((at) => at > startMs)
    .map((at) => ({ id: money.id(at), at, payouts: 0, cents: 0 }));
  const balanceTotals = new Map<PayoutAccountStatus, { vendors: number; cents: number }>();
  let ordersWritten = 0;
  let productsWritten = 0;

  for (let i = 0; i < options.vendors; i++) {
    const owner = personName(rand);
    const internal = i % 1000 === 0;
    const name = internal ? `HKI Global Store ${i / 1000 + 1}` : storeName(rand, owner);
    const joinedMs = startMs + Math.floor(rand.next() * (nowMs - startMs));
    const vendorId = rand.id(joinedMs);
    const active = internal || !rand.chance(0.1);
    const [primary, secondary] = rand.pick(PALETTES);
    const joinedAt = iso(joinedMs);
    await sink.add("vendors", {
      id: vendorId,
      name,
      owner_name: owner.full,
      email: emailFor(owner, internal ? "hki.global" : "example.com", String(i)),
      slug: `${slugify(name)}-${seed}-${i}`,
      owner_user_id: null,
      is_active: active ? 1 : 0,
      is_internal: internal ? 1 : 0,
      joined_at: joinedAt,
      theme: rand.pick(THEMES),
      primary_color: primary,
      secondary_color: secondary,
      about: aboutText(rand, name),
      custom_css: sampleCustomCss(rand),
      ...customHtmlColumnsOf(sampleCustomHtml(rand)),
      updated_at: joinedAt,
      // The same columns as the applicants' rows below (the sink writes each table's first row's columns).
      approval_status: "approved",
      applied_at: null,
      application: null,
    });
    count(COUNTERS.vendorsTotal, 1);
    count(COUNTERS.vendorsActive, active ? 1 : 0);
    count(COUNTERS.vendorsInternal, internal ? 1 : 0);
    addDay(joinedAt.slice(0, 10), { newVendors: 1 });

    const products = Array.from({ length: productsPer[i] ?? 0 }, () => {
      const createdMs = joinedMs + Math.floor(rand.next() * (nowMs - joinedMs) * 0.5);
      return {
        id: rand.id(createdMs),
        vendor_id: vendorId,
        name: productName(rand),
        price_cents: productPriceCents(rand),
        inventory: rand.int(0, 50),
        status: rand.chance(0.08) ? ("draft" as const) : ("listed" as "listed" | "hidden" | "pending_review"),
        units_sold: 0,
        revenue_cents: 0,
        created_at: iso(createdMs),
        moderation_reason: null as string | null,
        moderated_at: null as string | null,
        moderated_by: null as string | null,
        createdMs,
      };
    });
    let listed = 0;
    for (const p of products) {
      addDay(p.created_at.slice(0, 10), { newProducts: 1 });
      // A few listed products were taken down by an operator (docs/product.md §16), from their own PRNG.
      if (p.status === "listed" && moderation.chance(0.003)) {
        const at = iso(p.createdMs + Math.floor(moderation.next() * (nowMs - p.createdMs)));
        Object.assign(p, { status: "hidden", moderation_reason: moderation.pick(DEMO_HIDE_REASONS), moderated_at: at, moderated_by: "admin@hki.global" });
        await sink.add("product_moderations", {
          id: moderation.id(Date.parse(at)),
          product_id: p.id,
          action: "hide",
          from_status: "listed",
          to_status: "hidden",
          reason: p.moderation_reason,
          actor_id: null,
          actor_email: "admin@hki.global",
          created_at: at,
        });
        count(COUNTERS.productsHidden, 1);
      }
      if (p.status === "listed" && review.chance(0.0005)) {
        p.status = "pending_review";
        count(COUNTERS.productsPendingReview, 1);
      }
      if (p.status === "listed") listed++;
    }
    count(COUNTERS.productsTotal, products.length);
    count(COUNTERS.productsListed, listed);

    const vendorDays = new Map<string, DayAcc>();
    /** Paid sales per product and day (product_sales_days, and the top lists' windows from them). */
    const productDays = new Map<string, { productId: string; day: string; gross: number; orders: number; units: number }>();
    const totals = { gross: 0, orders: 0, fees: 0, items: 0, lastSale: null as string | null };
    /** Net earnings (gross − fee) of paid orders before each run, and after the last one. */
    const earnedBefore = new Float64Array(runs.length + 1);
    const nOrders = ordersPer[i] ?? 0;
    for (let k = 0; k < nOrders; k++) {
      const product = rand.pick(products);
      const t = Math.max(product.createdMs, joinedMs) + Math.floor(rand.next() * (nowMs - Math.max(product.createdMs, joinedMs)));
      const quantity = rand.weighted([
        [1, 80],
        [2, 15],
        [3, 5],
      ] as const);
      const gross = product.price_cents * quantity;
      const rate = t < oneYearAgo ? 125 : DEFAULT_FEE_RATE_BASIS_POINTS;
      const fee = feeCents(gross, rate);
      const status = rand.weighted([
        ["paid", 95],
        ["refunded", 3],
        ["cancelled", 2],
      ] as const);
      const createdAt = iso(t);
      await sink.add("orders", {
        id: rand.id(t),
        vendor_id: vendorId,
        product_id: product.id,
        product_name: product.name,
        quantity,
        gross_cents: gross,
        fee_cents: fee,
        fee_rate_basis_points: rate,
        status,
        customer_email: `buyer${rand.int(1, 999_999)}@example.com`,
        created_at: createdAt,
        updated_at: createdAt,
      });
      count(COUNTERS.ordersTotal, 1);
      // Generated refunds happen at the order's time, so they count on its day.
      if (status === "refunded") addDay(createdAt.slice(0, 10), { refundsCents: gross });
      if (status !== "paid") continue;
      const before = runs.findIndex((r) => t <= r.at);
      const slot = before === -1 ? runs.length : before;
      earnedBefore[slot] = (earnedBefore[slot] ?? 0) + gross - fee;
      count(COUNTERS.ordersPaid, 1);
      product.units_sold += quantity;
      product.revenue_cents += gross;
      const day = createdAt.slice(0, 10);
      const acc = vendorDays.get(day) ?? { gross: 0, orders: 0, fees: 0, items: 0 };
      acc.gross += gross;
      acc.orders += 1;
      acc.fees += fee;
      acc.items += quantity;
      vendorDays.set(day, acc);
      const pd = productDays.get(`${product.id}|${day}`) ?? { productId: product.id, day, gross: 0, orders: 0, units: 0 };
      pd.gross += gross;
      pd.orders += 1;
      pd.units += quantity;
      productDays.set(`${product.id}|${day}`, pd);
      addDay(day, { grossCents: gross, orders: 1, feesCents: fee, itemsSold: quantity });
      totals.gross += gross;
      totals.orders += 1;
      totals.fees += fee;
      totals.items += quantity;
      if (totals.lastSale === null || createdAt > totals.lastSale) totals.lastSale = createdAt;
    }
    ordersWritten += nOrders;

    for (const { createdMs: _createdMs, ...p } of products) await sink.add("products", p);
    productsWritten += products.length;
    for (const [day, a] of vendorDays) {
      await sink.add("daily_vendor_totals", { vendor_id: vendorId, day, gross_cents: a.gross, orders: a.orders, fees_cents: a.fees, items_sold: a.items });
    }
    // The top lists' rolling windows end today; internal vendors stay out of them (docs/decisions/0013-top-lists.md).
    const vendorWindows = new Map<number, { gross: number; orders: number; units: number }>();
    for (const pd of productDays.values()) {
      await sink.add("product_sales_days", { product_id: pd.productId, day: pd.day, vendor_id: vendorId, gross_cents: pd.gross, orders: pd.orders, units: pd.units });
    }
    if (!internal) {
      const perProduct = new Map<string, { gross: number; orders: number; units: number }>();
      for (const period of PERIOD_WINDOW_DAYS) {
        const from = iso(today - (period - 1) * DAY_MS).slice(0, 10);
        perProduct.clear();
        for (const pd of productDays.values()) {
          if (pd.day < from) continue;
          const t = perProduct.get(pd.productId) ?? { gross: 0, orders: 0, units: 0 };
          t.gross += pd.gross;
          t.orders += pd.orders;
          t.units += pd.units;
          perProduct.set(pd.productId, t);
        }
        const v = { gross: 0, orders: 0, units: 0 };
        for (const [productId, t] of perProduct) {
          await sink.add("product_period_totals", { product_id: productId, period_days: period, vendor_id: vendorId, gross_cents: t.gross, orders: t.orders, units: t.units });
          v.gross += t.gross;
          v.orders += t.orders;
          v.units += t.units;
        }
        if (v.orders > 0) vendorWindows.set(period, v);
      }
      for (const [period, v] of vendorWindows) await sink.add("vendor_period_totals", { vendor_id: vendorId, period_days: period, gross_cents: v.gross, orders: v.orders, units: v.units });
    }

    if (!internal) {
      const activeSub = active;
      const fee = 2999;
      await sink.add("subscriptions", {
        id: rand.id(joinedMs),
        vendor_id: vendorId,
        plan: "artist-monthly",
        monthly_fee_cents: fee,
        status: activeSub ? "active" : "cancelled",
        started_at: joinedAt,
        cancelled_at: activeSub ? null : iso(joinedMs + Math.floor((nowMs - joinedMs) / 2)),
      });
      addDay(joinedAt.slice(0, 10), { mrrChangeCents: fee });
      if (activeSub) {
        count(COUNTERS.subscriptionsActive, 1);
        count(COUNTERS.mrrCents, fee);
      } else {
        addDay(iso(joinedMs + Math.floor((nowMs - joinedMs) / 2)).slice(0, 10), { mrrChangeCents: -fee });
      }
    }

    let visits = 0;
    const level = rand.int(3, 120);
    for (let d = visitDays - 1; d >= 0; d--) {
      const dayMs = today - d * DAY_MS;
      if (dayMs < startOfUtcDay(new Date(joinedMs))) continue;
      const n = Math.round(level * (0.5 + rand.next()));
      if (n === 0) continue;
      visits += n;
      await sink.add("store_visits", { vendor_id: vendorId, day: iso(dayMs).slice(0, 10), visits: n });
    }

    await sink.add("vendor_totals", {
      vendor_id: vendorId,
      listed_products: listed,
      gross_cents: totals.gross,
      orders: totals.orders,
      fees_cents: totals.fees,
      items_sold: totals.items,
      visits,
      last_sale_at: totals.lastSale,
    });

    // The payout account: most active, a few pending, restricted or not connected; active ones
    // were paid in each past run where they were owed at least the minimum.
    const accountStatus = money.weighted<PayoutAccountStatus>([
      ["active", 88],
      ["pending", 4],
      ["restricted", 4],
      ["not_connected", 4],
    ]);
    const stripeAccountId = accountStatus === "not_connected" ? null : `acct_${vendorId.replace(/-/g, "").slice(-16)}`;
    let carried = 0;
    let paidOut = 0;
    let lastPayoutAt: string | null = null;
    for (const [r, run] of runs.entries()) {
      carried += earnedBefore[r] ?? 0;
      if (accountStatus !== "active" || !stripeAccountId || carried < GENERATED_MINIMUM_PAYOUT_CENTS) continue;
      const paidAtMs = run.at + money.int(1_000, 3_600_000);
      const paidAt = iso(paidAtMs);
      await sink.add("payouts", {
        id: money.id(run.at),
        run_id: run.id,
        vendor_id: vendorId,
        vendor_name: name,
        destination: stripeAccountId,
        amount_cents: carried,
        currency: "usd",
        status: "paid",
        attempt: 1,
        reuse_key: 0,
        stripe_transfer_id: `tr_${money.id(paidAtMs).replace(/-/g, "").slice(-20)}`,
        failure_reason: null,
        created_at: iso(run.at),
        updated_at: paidAt,
        paid_at: paidAt,
      });
      addDay(paidAt.slice(0, 10), { payoutsCents: carried });
      run.payouts += 1;
      run.cents += carried;
      paidOut += carried;
      lastPayoutAt = paidAt;
      carried = 0;
    }
    const earned = totals.gross - totals.fees;
    const balance = earned - paidOut;
    await sink.add("payout_accounts", {
      vendor_id: vendorId,
      stripe_account_id: stripeAccountId,
      status: accountStatus,
      charges_enabled: accountStatus === "active" ? 1 : 0,
      payouts_enabled: accountStatus === "active" ? 1 : 0,
      requirements: accountStatus === "restricted" ? JSON.stringify({ currentlyDue: ["external_account"], pastDue: ["external_account"], disabledReason: "requirements.past_due" }) : null,
      checked_at: stripeAccountId ? joinedAt : null,
      earned_cents: earned,
      paid_out_cents: paidOut,
      in_flight_cents: 0,
      balance_cents: balance,
      last_payout_at: lastPayoutAt,
    });
    if (balance > 0) {
      const t = balanceTotals.get(accountStatus) ?? { vendors: 0, cents: 0 };
      t.vendors += 1;
      t.cents += balance;
      balanceTotals.set(accountStatus, t);
    }

    if ((i + 1) % 1000 === 0 || i + 1 === options.vendors) {
      const s = (Date.now() - started) / 1000;
      progress(`vendors ${i + 1}/${options.vendors}, products ${productsWritten}, orders ${ordersWritten}, rows ${sink.written} (${Math.round(sink.written / Math.max(s, 0.001))} rows/s)`);
    }
  }

  // Applicants waiting in the Applications queue (docs/product.md §20.2): one per hundred artists,
  // applied over the last 30 days, from their own PRNG so the rest of the data set is unchanged.
  const applicantsRand = new Random(seed ^ 0x0a991e5);
  for (let k = 0; k < Math.floor(options.vendors / 100); k++) {
    const owner = personName(applicantsRand);
    const name = storeName(applicantsRand, owner);
    const appliedMs = nowMs - applicantsRand.int(1, 30 * 24) * 3_600_000;
    const vendorId = applicantsRand.id(appliedMs);
    const appliedAt = iso(appliedMs);
    const slug = `${slugify(name)}-${seed}-applicant-${k}`;
    await sink.add("vendors", {
      id: vendorId,
      name,
      owner_name: owner.full,
      email: emailFor(owner, "example.com", `a${k}`),
      slug,
      owner_user_id: null,
      is_active: 0,
      is_internal: 0,
      joined_at: appliedAt,
      theme: "default",
      primary_color: "#111827",
      secondary_color: "#6b7280",
      about: "",
      custom_css: "",
      ...customHtmlColumnsOf(null),
      updated_at: appliedAt,
      approval_status: "pending",
      applied_at: appliedAt,
      application: JSON.stringify({
        portfolioUrl: `https://portfolio.example.com/${slug}`,
        statement: `${name}: small editions made by hand.`,
        sampleImageUrls: [1, 2, 3].map((n) => `http://localhost:5174/uploads/${slug}-${n}.jpg`),
        referral: null,
      }),
    });
    await sink.add("vendor_totals", { vendor_id: vendorId, listed_products: 0, gross_cents: 0, orders: 0, fees_cents: 0, items_sold: 0, visits: 0, last_sale_at: null });
    await sink.add("payout_accounts", {
      vendor_id: vendorId,
      stripe_account_id: null,
      status: "not_connected",
      charges_enabled: 0,
      payouts_enabled: 0,
      requirements: null,
      checked_at: null,
      earned_cents: 0,
      paid_out_cents: 0,
      in_flight_cents: 0,
      balance_cents: 0,
      last_payout_at: null,
    });
    count(COUNTERS.vendorsTotal, 1);
    count(COUNTERS.vendorsPending, 1);
    addDay(appliedAt.slice(0, 10), { newVendors: 1 });
  }

  const userEmails = ["admin@hki.global", "support@hki.global", "ops@hki.global"];
  for (let k = 0; k < options.errorLogs; k++) {
    const t = startMs + Math.floor(rand.next() * (nowMs - startMs));
    const log = sampleErrorLog(rand, rand.id(t), iso(t), userEmails);
    const archivedAt = sampleArchive(rand, t, nowMs);
    await sink.add("error_logs", { ...log, archived_at: archivedAt, archived: archivedAt === null ? 0 : 1 });
    if ((k + 1) % 100_000 === 0) progress(`error logs ${k + 1}/${options.errorLogs}`);
  }
  await sink.flush();
  // Audit rows (default: as many as error logs), targeting the vendors just written.
  await generateAuditRows(database, sink, { count: options.auditRows ?? options.errorLogs, seed, startMs, nowMs, progress });
  await sink.flush();
  restorePragmas();

  // Platform days and counters are additive upserts, so generating onto existing data stays consistent.
  await database.db.transaction().execute(async (trx) => {
    for (const [day, d] of platformDays) await addToDailyPlatformTotals(trx, day, d);
    await incrementCounters(trx, counters);
    for (const [status, t] of balanceTotals) await addToBalanceTotals(trx, status, t.vendors, t.cents);
    for (const run of runs) {
      if (run.payouts === 0) continue;
      const at = iso(run.at);
      await trx
        .insertInto("payout_runs")
        .values({
          id: run.id,
          status: "completed",
          active: null,
          minimum_cents: GENERATED_MINIMUM_PAYOUT_CENTS,
          expected_payouts: run.payouts,
          expected_cents: run.cents,
          payouts: run.payouts,
          total_cents: run.cents,
          paid: run.payouts,
          paid_cents: run.cents,
          planning_done: 1,
          plan_cursor: null,
          error: null,
          created_by: "generator",
          created_at: at,
          started_at: at,
          finished_at: iso(run.at + 3_600_000),
        })
        .execute();
    }
    await ensureDefaultSettings(trx, clock);
    for (const period of PERIOD_WINDOW_DAYS) {
      const lastDay = iso(today).slice(0, 10);
      await trx
        .insertInto("period_windows")
        .values({ period_days: period, last_day: lastDay })
        .onConflict((oc) => oc.column("period_days").doUpdateSet({ last_day: lastDay }))
        .execute();
    }
    // Vendors over max_products_per_vendor, counted once from vendor_totals (an index range).
    await recountVendorsOverProductLimit(trx);
  });
  const seconds = (Date.now() - started) / 1000;
  progress(`done: ${sink.written} rows in ${seconds.toFixed(1)} s`);
  return { vendors: options.vendors, products: productsWritten, orders: ordersWritten, errorLogs: options.errorLogs, rows: sink.written, seconds };
}

/** A store's custom HTML as the ledger writes it: as written, with the copy the API shows (migration 034). */
function customHtmlColumnsOf(html: string | null) {
  return { custom_html: html, ...customHtmlColumns(html) };
}
