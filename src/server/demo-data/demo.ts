import type { Kysely, Transaction } from "kysely";
import { type Clock, fixedClock } from "../platform/clock.ts";
import { placeOrder, cancelOrder, refundOrder } from "../domain/ledger/orders.ts";
import { addPendingPayouts, finishPayoutRun, insertPayoutRun, markPayoutFailed, markPayoutPaid, markPayoutProcessing } from "../domain/ledger/payouts.ts";
import { createProduct } from "../domain/ledger/products.ts";
import { cancelSubscription, startSubscription } from "../domain/ledger/subscriptions.ts";
import { createVendor } from "../domain/ledger/vendors.ts";
import { recordVisitsMany } from "../domain/ledger/visits.ts";
import { DEFAULT_FEE_RATE_BASIS_POINTS, SETTINGS_CATALOG } from "../domain/settings/settings-catalog.ts";
import { ensureDefaultSettings } from "../domain/settings/settings.queries.ts";
import type { DB, NewErrorLog, PayoutAccountStatus, Product, Vendor } from "../platform/db/schema.ts";
import { seedDemoAnnouncements } from "./demo-announcements.ts";
import { seedDemoCatalogue } from "./demo-catalogue.ts";
import { addDemoSecondLine, demoOrderId, demoPayment } from "./demo-order-lines.ts";
import { seedDemoRefunds } from "./demo-refunds.ts";
import { seedDemoDisputes } from "./demo-disputes.ts";
import { seedDemoFeatured } from "./demo-featured.ts";
import { seedDemoApplications } from "./demo-applications.ts";
import { seedDemoListingReview } from "./demo-listing-review.ts";
import { seedDemoApiKeys } from "./demo-integrations.ts";
import { seedDemoIncomingEvents } from "./demo-incoming-events.ts";
import { seedDemoStaff } from "./demo-staff.ts";
import { seedDemoWebhooks } from "./demo-webhooks.ts";
import { HOSTILE_CUSTOMIZATIONS, sampleCustomCss, sampleCustomHtml } from "./customization.ts";
import { sampleArchive, sampleErrorLog } from "./error-log-samples.ts";
import { aboutText, emailFor, PALETTES, personName, productName, productPriceCents, slugify, storeName, THEMES } from "./names.ts";
import { DAY_MS, Random, startOfUtcDay } from "./random.ts";

export interface SeedDemoOptions {
  clock: Clock;
  /** PRNG seed; the same seed on the same UTC day gives the same data. */
  seed?: number;
  /**
   * Creates the login of a vendor's owner and returns its user id (auth is not the seed's
   * business); without it owner_user_id stays null.
   */
  createOwnerUser?: (trx: Transaction<DB>, owner: { name: string; email: string }) => Promise<string | null>;
  /** The first admin's e-mail: the actor of the demo's audit rows (demo-staff.ts). Default admin@hki.global. */
  adminEmail?: string;
}

export interface SeedDemoSummary {
  seeded: boolean;
  vendors: number;
  products: number;
  orders: number;
  refunded: number;
  cancelled: number;
  subscriptions: number;
  visitDays: number;
  errorLogs: number;
  payouts: number;
}

export const DEMO_SEED = 20_240_601;
const VENDORS = 60;
const ORDER_DAYS = 120;
const ERROR_DAYS = 60;
/** Orders older than this were placed when the platform fee was 1.25 %. */
const OLD_RATE_BEFORE_DAYS = 110;
const OLD_FEE_RATE_BASIS_POINTS = 125;
const INTERNAL_STORES = ["HKI Global Studio", "HKI Curated Picks", "HKI Test Shop"] as const;
/** Past monthly payout runs (days ago), paying active accounts owed at least the $25 minimum. */
const PAYOUT_RUN_DAYS_AGO = [60, 30] as const;
const DEMO_MINIMUM_PAYOUT_CENTS = 2500;
/** What Stripe says when a connected account cannot receive transfers (the demo's one failed payout). */
export const DEMO_TRANSFER_FAILURE = "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments";

/** Most artists have an active Stripe account; a few are pending, restricted or never connected; the platform's own stores are not paid out. */
function demoAccountStatus(i: number, internal: boolean): PayoutAccountStatus {
  if (internal) return "not_connected";
  if (i % 17 === 5) return "restricted";
  if (i % 19 === 8) return "not_connected";
  if (i % 23 === 11) return "pending";
  return "active";
}

/**
 * Fills an EMPTY database (no vendors) with a deterministic artist marketplace, every write
 * through the ledger so rollups and counters are right. Running it again adds nothing.
 * Event times are anchored to 00:00 UTC of the clock's day (so they, and every daily rollup,
 * repeat for the same seed and day); the few events of "today" are spread up to now.
 */
export async function seedDemoData(db: Kysely<DB>, options: SeedDemoOptions): Promise<SeedDemoSummary> {
  const rand = new Random(options.seed ?? DEMO_SEED);
  const now = options.clock.now();
  const nowMs = now.getTime();
  const today = startOfUtcDay(now);
  const summary: SeedDemoSummary = {
    seeded: false,
    vendors: 0,
    products: 0,
    orders: 0,
    refunded: 0,
    cancelled: 0,
    subscriptions: 0,
    visitDays: 0,
    errorLogs: 0,
    payouts: 0,
  };
  /** An instant `daysAgo` whole days before today at `fraction` of that day; today's stop at now. */
  const at = (daysAgo: number, fraction: number): number => (daysAgo <= 0 ? today + Math.floor(fraction * (nowMs - today)) : today - daysAgo * DAY_MS + Math.floor(fraction * DAY_MS));
  const iso = (ms: number) => new Date(ms).toISOString();

  return db.transaction().execute(async (trx) => {
    const any = await trx.selectFrom("vendors").select("id").limit(1).executeTakeFirst();
    if (any) return summary;
    summary.seeded = true;
    await ensureDefaultSettings(trx, options.clock);

    // Vendors: a few internal stores, most joined over the past year and a handful this month.
    const vendors: Vendor[] = [];
    const slugs = new Set<string>();
    for (let i = 0; i < VENDORS; i++) {
      const owner = personName(rand);
      const internal = i < INTERNAL_STORES.length;
      const name = internal ? (INTERNAL_STORES[i] as string) : storeName(rand, owner);
      let slug = slugify(name);
      for (let n = 2; slugs.has(slug); n++) slug = `${slugify(name)}-${n}`;
      slugs.add(slug);
      const email = internal ? emailFor(owner, "hki.global") : emailFor(owner, rand.pick(["gmail.com", "outlook.com", "proton.me", "studio-mail.com"]));
      const daysAgo = i < 3 ? 400 : i % 10 === 9 ? rand.int(1, 25) : rand.int(30, 390);
      const [primary, secondary] = rand.pick(PALETTES);
      // Two stores carry hostile CSS/HTML so the sanitising path always has work to do.
      const hostile = i === 7 ? HOSTILE_CUSTOMIZATIONS[0] : i === 13 ? HOSTILE_CUSTOMIZATIONS[1] : undefined;
      const ownerUserId = options.createOwnerUser ? await options.createOwnerUser(trx, { name: owner.full, email }) : null;
      const vendorId = rand.id(at(daysAgo, 0.5));
      const accountStatus = demoAccountStatus(i, internal);
      vendors.push(
        await createVendor(
          trx,
          {
            id: vendorId,
            name,
            ownerName: owner.full,
            email,
            slug,
            ownerUserId,
            isInternal: internal,
            isActive: internal || !rand.chance(0.14),
            joinedAt: iso(at(daysAgo, rand.next())),
            theme: rand.pick(THEMES),
            primaryColor: primary,
            secondaryColor: secondary,
            about: aboutText(rand, name),
            customCss: hostile?.css ?? sampleCustomCss(rand),
            customHtml: hostile?.html ?? sampleCustomHtml(rand),
            payoutAccount: { stripeAccountId: accountStatus === "not_connected" ? null : `acct_1${vendorId.replace(/-/g, "").slice(-15)}`, status: accountStatus },
          },
          options.clock,
        ),
      );
    }
    summary.vendors = vendors.length;

    // Products: 2–9 per store, created after the store joined, a tenth of them drafts.
    const products: Product[] = [];
    for (const v of vendors) {
      const joined = Date.parse(v.joined_at);
      const count = v.is_internal ? rand.int(2, 4) : rand.int(2, 9);
      for (let k = 0; k < count; k++) {
        // Anchored to today, not now, so the data does not depend on the time of day.
        const createdMs = joined + Math.floor(rand.next() * Math.max(0, today - joined) * 0.6);
        products.push(
          await createProduct(
            trx,
            {
              id: rand.id(createdMs),
              vendorId: v.id,
              name: productName(rand),
              priceCents: productPriceCents(rand),
              inventory: rand.int(0, 40),
              status: rand.chance(0.1) ? "draft" : "listed",
              createdAt: iso(createdMs),
            },
            options.clock,
          ),
        );
      }
    }
    summary.products = products.length;

    // Orders: 6–16 a day over the last 120 days, only of listed products that existed by then
    // from active stores; a few refunded or cancelled a day or two later.
    const sellable = products.filter((p) => p.status === "listed" && vendors.find((v) => v.id === p.vendor_id)?.is_active === 1);
    for (let daysAgo = ORDER_DAYS; daysAgo >= 0; daysAgo--) {
      // Payout runs happened on some mornings: what was owed then was paid (one transfer failed in the last).
      if ((PAYOUT_RUN_DAYS_AGO as readonly number[]).includes(daysAgo)) {
        summary.payouts += await demoPayoutRun(trx, rand, at(daysAgo, 0.4), daysAgo === Math.min(...PAYOUT_RUN_DAYS_AGO));
      }
      const perDay = daysAgo === 0 ? rand.int(3, 6) : rand.int(6, 16);
      const times = Array.from({ length: perDay }, () => at(daysAgo, rand.next())).sort((a, b) => a - b);
      for (const t of times) {
        const candidates = sellable.filter((p) => Date.parse(p.created_at) <= t);
        if (candidates.length === 0) continue;
        const product = rand.pick(candidates);
        const buyer = personName(rand);
        const order = await placeOrder(
          trx,
          {
            id: rand.id(t),
            vendorId: product.vendor_id,
            productId: product.id,
            quantity: rand.weighted([
              [1, 75],
              [2, 18],
              [3, 7],
            ] as const),
            feeRateBasisPoints: daysAgo > OLD_RATE_BEFORE_DAYS ? OLD_FEE_RATE_BASIS_POINTS : DEFAULT_FEE_RATE_BASIS_POINTS,
            createdAt: iso(t),
            customerEmail: emailFor(buyer, "example.com", String(rand.int(1, 99))),
            externalOrderId: demoOrderId(summary.orders),
            externalLineId: "line_1",
            ...demoPayment(summary.orders),
          },
          options.clock,
        );
        summary.orders += 1 + (await addDemoSecondLine(trx, order, summary.orders, candidates, options.clock));
        const outcome = rand.weighted([
          ["paid", 94],
          ["refunded", 4],
          ["cancelled", 2],
        ] as const);
        if (outcome !== "paid") {
          const when = fixedClock(iso(Math.min(nowMs, t + rand.int(1, 48) * 3_600_000)));
          await (outcome === "refunded" ? refundOrder : cancelOrder)(trx, order.id, when);
          summary[outcome]++;
        }
      }
    }

    // Refunds from the panel in every state: made, made after a payout (netted), refused, unknown (demo-refunds.ts).
    await seedDemoRefunds(trx, { now, adminEmail: options.adminEmail ?? "admin@hki.global" });
    // Stripe disputes: open (held), won (released), lost with the fee paid by the platform or by the artist (demo-disputes.ts).
    await seedDemoDisputes(trx, { now });

    // Subscriptions: every artist store pays monthly; older stores on the legacy price;
    // inactive stores cancelled theirs.
    for (const v of vendors) {
      if (v.is_internal) continue;
      const joined = Date.parse(v.joined_at);
      const legacy = joined < today - 200 * DAY_MS;
      const sub = await startSubscription(
        trx,
        {
          id: rand.id(joined),
          vendorId: v.id,
          plan: legacy ? "artist-monthly-legacy" : "artist-monthly",
          monthlyFeeCents: legacy ? 1999 : 2999,
          startedAt: v.joined_at,
        },
        options.clock,
      );
      summary.subscriptions++;
      if (!v.is_active) await cancelSubscription(trx, sub.id, options.clock, iso(joined + Math.floor((today - joined) * 0.7)));
    }

    // Store visits: every day since joining (at most 120 days), around a per-store level.
    for (const v of vendors) {
      const joinedDay = startOfUtcDay(new Date(v.joined_at));
      const level = rand.int(5, 90);
      const entries = [];
      for (let daysAgo = ORDER_DAYS; daysAgo >= 0; daysAgo--) {
        const dayMs = today - daysAgo * DAY_MS;
        if (dayMs < joinedDay) continue;
        entries.push({ day: iso(dayMs).slice(0, 10), count: Math.round(level * (0.5 + rand.next())) * (v.is_active ? 1 : 0) });
      }
      await recordVisitsMany(trx, v.id, entries);
      summary.visitDays += entries.filter((e) => e.count > 0).length;
    }

    // Error logs: 2–12 a day over the last 60 days, all three levels, some archived.
    const userEmails = vendors.slice(0, 25).map((v) => v.email);
    const logs: NewErrorLog[] = [];
    for (let daysAgo = ERROR_DAYS; daysAgo >= 0; daysAgo--) {
      const perDay = daysAgo === 0 ? rand.int(1, 4) : rand.int(2, 12);
      for (let k = 0; k < perDay; k++) {
        const t = at(daysAgo, rand.next());
        const log = sampleErrorLog(rand, rand.id(t), iso(t), userEmails);
        const archivedAt = sampleArchive(rand, t, nowMs);
        logs.push({ ...log, archived_at: archivedAt, archived: archivedAt === null ? 0 : 1 });
      }
    }
    for (let i = 0; i < logs.length; i += 200)
      await trx
        .insertInto("error_logs")
        .values(logs.slice(i, i + 200))
        .execute();
    summary.errorLogs = logs.length;
    // The catalogue's states: an artist over the product limit, products hidden with reasons (demo-catalogue.ts).
    summary.products += (await seedDemoCatalogue(trx, { vendors, clock: options.clock, today, seed: options.seed ?? DEMO_SEED, adminEmail: options.adminEmail ?? "admin@hki.global" })).products;
    // Staff: a viewer, a pending invitation and the audit rows of a few admin actions (demo-staff.ts).
    await seedDemoStaff(trx, { rand, at, vendors, adminEmail: options.adminEmail ?? "admin@hki.global" });
    // The featured artist: current, queued, and past ones (demo-featured.ts).
    await seedDemoFeatured(trx, { vendors, now, adminEmail: options.adminEmail ?? "admin@hki.global" });
    // Applications waiting for different times, one asked for changes, one rejected; the suspended artists' reasons (demo-applications.ts).
    summary.vendors += (await seedDemoApplications(trx, { vendors, now, adminEmail: options.adminEmail ?? "admin@hki.global" })).length;
    // Listings waiting for review, a trusted artist, an artist with infringement takedowns (demo-listing-review.ts).
    summary.products += (await seedDemoListingReview(trx, { vendors, now, adminEmail: options.adminEmail ?? "admin@hki.global" })).products;
    // Announcements: one sent, one with a refused mail, one on the artists' dashboard now (demo-announcements.ts).
    await seedDemoAnnouncements(trx, { vendors, now, adminEmail: options.adminEmail ?? "admin@hki.global", supportEmail: SETTINGS_CATALOG.support_email.defaultValue });
    // API keys on the Integrations screen: one in use, one revoked; their secrets are thrown away (demo-integrations.ts).
    await seedDemoApiKeys(trx, { now, adminEmail: options.adminEmail ?? "admin@hki.global" });
    // Incoming events on the same screen: the storefront's, Stripe's and Clerk's, with every outcome (demo-incoming-events.ts).
    const paid = await trx
      .selectFrom("payout_accounts")
      .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
      .select(["vendors.name", "payout_accounts.stripe_account_id"])
      .where("payout_accounts.status", "=", "active")
      .where("payout_accounts.stripe_account_id", "is not", null)
      .orderBy("payout_accounts.vendor_id")
      .limit(1)
      .executeTakeFirst();
    await seedDemoIncomingEvents(trx, { now, account: paid?.stripe_account_id ? { vendorName: paid.name, stripeAccountId: paid.stripe_account_id } : null });
    // A webhook endpoint at an example address, disabled, with a few deliveries (demo-webhooks.ts).
    await seedDemoWebhooks(trx, { vendors, now, adminEmail: options.adminEmail ?? "admin@hki.global" });
    return summary;
  });
}

/**
 * One past payout run through the ledger, as the worker makes it: every active account owed at
 * least the minimum gets a payout, paid within the hour; with `failOne`, the third is refused by
 * Stripe (and stays owed, ready to be retried).
 */
async function demoPayoutRun(trx: Transaction<DB>, rand: Random, atMs: number, failOne: boolean): Promise<number> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const eligible = await trx
    .selectFrom("payout_accounts")
    .innerJoin("vendors", "vendors.id", "payout_accounts.vendor_id")
    .select(["payout_accounts.vendor_id", "vendors.name", "payout_accounts.stripe_account_id", "payout_accounts.balance_cents"])
    .where("payout_accounts.status", "=", "active")
    .where("payout_accounts.balance_cents", ">=", DEMO_MINIMUM_PAYOUT_CENTS)
    .orderBy("payout_accounts.vendor_id")
    .execute();
  const runId = rand.id(atMs);
  const payouts = eligible.map((a) => ({ id: rand.id(atMs), vendorId: a.vendor_id, vendorName: a.name, destination: a.stripe_account_id ?? "", amountCents: Number(a.balance_cents) }));
  await insertPayoutRun(trx, {
    id: runId,
    minimumCents: DEMO_MINIMUM_PAYOUT_CENTS,
    expectedPayouts: payouts.length,
    expectedCents: payouts.reduce((s, p) => s + p.amountCents, 0),
    skipped: 0,
    skippedCents: 0,
    createdBy: "demo",
    createdAt: iso(atMs),
  });
  await addPendingPayouts(trx, runId, payouts, iso(atMs));
  let t = atMs;
  for (const [k, p] of payouts.entries()) {
    t += rand.int(1_000, 40_000);
    await markPayoutProcessing(trx, p.id, iso(t));
    if (failOne && k === 2) await markPayoutFailed(trx, p.id, DEMO_TRANSFER_FAILURE, false, iso(t));
    else await markPayoutPaid(trx, p.id, `tr_1${p.id.replace(/-/g, "").slice(-15)}`, iso(t));
  }
  await trx
    .updateTable("payout_runs")
    .set({ planning_done: 1, started_at: iso(atMs) })
    .where("id", "=", runId)
    .execute();
  await finishPayoutRun(trx, runId, "completed", iso(t + 1_000));
  return payouts.length;
}
