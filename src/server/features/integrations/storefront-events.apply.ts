import type {
  ArtistApplicationData,
  ArtistData,
  EventRejectionCode,
  OrderPaidData,
  OrderRefundedData,
  ProductData,
  StorefrontEventType,
  StoreVisitsData,
  SubscriptionPaidData,
  ErrorReportedData,
} from "../../../contract/integrations-events.ts";
import { endFeaturesOfVendor } from "../../domain/featured-artist/featured-slots.ts";
import { type PlaceOrderInput, placeOrders, refundOrderPart } from "../../domain/ledger/orders.ts";
import { setPayoutAccount } from "../../domain/ledger/payouts.ts";
import { createProduct, deleteProduct, panelStatusOf, updateProductDetails } from "../../domain/ledger/products.ts";
import { newListingWaitsForReview } from "../../domain/ledger/product-review.ts";
import { cancelSubscription, extendSubscriptionPeriod, startSubscription } from "../../domain/ledger/subscriptions.ts";
import { createVendor, deleteVendorCascade, updateVendorProfile } from "../../domain/ledger/vendors.ts";
import { setDayVisits } from "../../domain/ledger/visits.ts";
import { feeRateBasisPointsAt, feeRatesBasisPointsAt, readSettingValue } from "../../domain/settings/settings.queries.ts";
import { updateApplication } from "../../domain/ledger/applications.ts";
import { recordEventOut } from "../../domain/outbox/events-out.ts";
import type { ArtistApplication } from "../../../contract/vendors.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { ErrorRecorder } from "../../platform/error-recorder/error-recorder.ts";
import { RateLimiter } from "../../platform/http/rate-limiter.ts";
import {
  findActiveSubscription,
  findOrderRows,
  findProductByExternalId,
  findProductsByExternalIds,
  findRecordedOrderIds,
  findRefundedOrderIds,
  findSlugOwner,
  findVendorByExternalId,
  findVendorIdsByExternalIds,
  readPayoutAccountId,
  readVersion,
  writeVersion,
} from "./integrations.queries.ts";

/** An event refused with a reason the sender can act on; thrown inside its transaction, so nothing it did stays. */
export class EventRejection extends Error {
  constructor(
    readonly code: EventRejectionCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** How an event ended when it was not refused. `duplicate`: what it would record is already there (an order by its id, a refund by its id). */
export type AppliedOutcome = "applied" | "stale" | "duplicate";

export interface EventContext {
  trx: Executor;
  clock: Clock;
  /** The event's occurredAt as ISO text (UTC). */
  occurredAt: string;
  /** Who sent it, for the error log's flood budget of error.reported. */
  source: string;
  /** The storefront's origin (STOREFRONT_URL): the one host an application's images may come from. */
  storefrontOrigin: string;
}

const DAY_MS = 86_400_000;
/** An average month, for turning a period's payment into the monthly figure behind 'Monthly Recurring'. */
const MONTH_MS = 30.4375 * DAY_MS;

/**
 * The version check of an update to one thing: stale when an update at least as new was applied
 * (times equal: applied again, which changes nothing), gone when the thing was deleted.
 */
async function checkVersion(c: EventContext, thing: string): Promise<"current" | "stale" | "deleted"> {
  const v = await readVersion(c.trx, thing);
  if (v && v.occurredAt > c.occurredAt) return "stale";
  if (v?.deleted) return "deleted";
  return "current";
}

async function requireVendorId(c: EventContext, artistId: string, field: string): Promise<string> {
  const vendor = await findVendorByExternalId(c.trx, artistId);
  if (vendor) return vendor.id;
  const gone = (await readVersion(c.trx, `artist:${artistId}`))?.deleted === true;
  throw new EventRejection("unknown_artist", gone ? `Artist ${artistId} was deleted` : `No artist ${artistId} yet: send its artist.created first, then this again`, {
    [field]: gone ? "was deleted" : "no such artist yet",
  });
}

/**
 * The application as the panel keeps it, once every sample image is on the storefront's host: the
 * Applications tab shows them, and the panel's content policy allows no other image host.
 */
function storedApplication(c: EventContext, application: ArtistApplicationData): ArtistApplication {
  const fields: Record<string, string> = {};
  application.sampleImageUrls.forEach((url, i) => {
    if (new URL(url).origin !== c.storefrontOrigin) fields[`data.application.sampleImageUrls.${i}`] = `must be on the storefront's host (${c.storefrontOrigin})`;
  });
  const [first] = Object.entries(fields);
  if (first) throw new EventRejection("invalid_input", `${first[0]}: ${first[1]}`, fields);
  return { portfolioUrl: application.portfolioUrl, statement: application.statement, sampleImageUrls: application.sampleImageUrls, referral: application.referral ?? null };
}

async function upsertArtist(c: EventContext, data: ArtistData): Promise<AppliedOutcome> {
  const thing = `artist:${data.artistId}`;
  const version = await checkVersion(c, thing);
  if (version === "stale") return "stale";
  if (version === "deleted") throw new EventRejection("unknown_artist", `Artist ${data.artistId} was deleted`, { "data.artistId": "was deleted" });
  const application = data.application ? storedApplication(c, data.application) : undefined;
  const existing = await findVendorByExternalId(c.trx, data.artistId);
  const slugOwner = await findSlugOwner(c.trx, data.slug);
  if (slugOwner && slugOwner.id !== existing?.id) throw new EventRejection("invalid_input", `data.slug: ${data.slug} is another store's address`, { "data.slug": "is another store's address" });
  const look = data.customization ?? {};
  const profile = {
    name: data.name,
    ownerName: data.ownerName,
    email: data.email,
    slug: data.slug,
    ...(data.isInternal !== undefined ? { isInternal: data.isInternal } : {}),
    ...(data.clerkUserId !== undefined ? { ownerUserId: data.clerkUserId } : {}),
    ...(look.theme !== undefined ? { theme: look.theme } : {}),
    ...(look.primaryColor !== undefined ? { primaryColor: look.primaryColor } : {}),
    ...(look.secondaryColor !== undefined ? { secondaryColor: look.secondaryColor } : {}),
    ...(look.about !== undefined ? { about: look.about } : {}),
    ...(look.customCss !== undefined ? { customCss: look.customCss } : {}),
    ...(look.customHtml !== undefined ? { customHtml: look.customHtml } : {}),
  };
  if (!existing) {
    // A new artist is active, or with 'Artist approval' on waits in the Applications queue: the
    // panel alone decides its status (the storefront never does), and tells the storefront so.
    const pending = (await readSettingValue(c.trx, "artist_approval")) === "true";
    const vendor = await createVendor(
      c.trx,
      {
        ...profile,
        externalId: data.artistId,
        joinedAt: data.joinedAt ?? c.occurredAt,
        approvalStatus: pending ? "pending" : "approved",
        application: application ?? null,
        appliedAt: c.occurredAt,
        ...(data.stripeAccountId ? { payoutAccount: { stripeAccountId: data.stripeAccountId, status: "pending" as const } } : {}),
      },
      c.clock,
    );
    if (pending) await recordEventOut(c.trx, "artist.status_changed", { vendorId: vendor.id, artistId: data.artistId, status: "pending", reason: null }, c.clock.now().toISOString());
  } else {
    // joinedAt is read when the artist is made: the day it joined is where the dashboard counts it.
    await updateVendorProfile(c.trx, existing.id, profile, c.clock);
    // An application sent again after changes were asked for waits in the queue again.
    if (application && (await updateApplication(c.trx, existing.id, application, c.occurredAt))) {
      await recordEventOut(c.trx, "artist.status_changed", { vendorId: existing.id, artistId: data.artistId, status: "pending", reason: null }, c.clock.now().toISOString());
    }
    if (data.stripeAccountId !== undefined && (await readPayoutAccountId(c.trx, existing.id)) !== data.stripeAccountId) {
      // A new connected account is checked with Stripe before it is paid (Financials' refresh).
      await setPayoutAccount(c.trx, existing.id, { stripeAccountId: data.stripeAccountId, status: "pending", chargesEnabled: false, payoutsEnabled: false, requirements: null, checkedAt: null });
    }
  }
  await writeVersion(c.trx, thing, c.occurredAt, false);
  return "applied";
}

async function deleteArtist(c: EventContext, artistId: string): Promise<AppliedOutcome> {
  const thing = `artist:${artistId}`;
  const version = await checkVersion(c, thing);
  if (version === "stale") return "stale";
  const existing = await findVendorByExternalId(c.trx, artistId);
  if (existing) {
    await deleteVendorCascade(c.trx, existing.id);
    await endFeaturesOfVendor(c.trx, existing.id, "vendor_deleted", c.clock);
  }
  // Remembered even for an artist never seen: an artist.created sent earlier but arriving later is then stale.
  await writeVersion(c.trx, thing, c.occurredAt, true);
  return "applied";
}

async function upsertProduct(c: EventContext, data: ProductData): Promise<AppliedOutcome> {
  const thing = `product:${data.productId}`;
  const version = await checkVersion(c, thing);
  if (version === "stale") return "stale";
  if (version === "deleted") throw new EventRejection("unknown_product", `Product ${data.productId} was deleted`, { "data.productId": "was deleted" });
  const vendorId = await requireVendorId(c, data.artistId, "data.artistId");
  const existing = await findProductByExternalId(c.trx, data.productId);
  if (!existing) {
    // With 'Review new listings' on, a new listing waits in the Review queue, not live, whatever its
    // artist's status: the panel decides when it shows (docs/product.md §20.4), and tells the storefront.
    const waits = await newListingWaitsForReview(c.trx, vendorId);
    const product = await createProduct(
      c.trx,
      {
        vendorId,
        name: data.name,
        priceCents: data.priceCents,
        inventory: data.inventory,
        status: waits ? "pending_review" : panelStatusOf(data.status),
        storefrontStatus: data.status,
        externalId: data.productId,
        createdAt: c.occurredAt,
      },
      c.clock,
    );
    if (waits) {
      await recordEventOut(
        c.trx,
        "product.status_changed",
        { productId: product.id, externalProductId: data.productId, vendorId, artistId: data.artistId, status: "pending_review", reason: null },
        c.clock.now().toISOString(),
      );
    }
  } else {
    if (existing.vendor_id !== vendorId)
      throw new EventRejection("invalid_input", `data.artistId: product ${data.productId} belongs to another artist`, { "data.artistId": "the product belongs to another artist" });
    // A product an operator hid, one waiting for review and a rejected one keep their status (ledger/products.ts):
    // only the artist's own status is kept, for a restore or an approval.
    await updateProductDetails(c.trx, existing.id, { name: data.name, priceCents: data.priceCents, inventory: data.inventory, storefrontStatus: data.status });
  }
  await writeVersion(c.trx, thing, c.occurredAt, false);
  return "applied";
}

async function removeProduct(c: EventContext, productId: string): Promise<AppliedOutcome> {
  const thing = `product:${productId}`;
  if ((await checkVersion(c, thing)) === "stale") return "stale";
  const existing = await findProductByExternalId(c.trx, productId);
  if (existing) await deleteProduct(c.trx, existing.id);
  await writeVersion(c.trx, thing, c.occurredAt, true);
  return "applied";
}

/**
 * A paid order: one order row per line (the panel's order is one product), every row of an artist
 * linked by the storefront's orderId, the fee the rate in force at paidAt. An orderId already
 * recorded changes nothing.
 */
async function payOrder(c: EventContext, data: OrderPaidData): Promise<AppliedOutcome> {
  if ((await findOrderRows(c.trx, data.orderId)).length > 0) return "duplicate";
  const { vendors, products } = await linesRows(c.trx, [data]);
  for (const [i, line] of data.lines.entries()) {
    const vendorId = vendors.get(line.artistId);
    if (!vendorId) await requireVendorId(c, line.artistId, `data.lines.${i}.artistId`);
    const product = products.get(line.productId);
    if (!product) {
      throw new EventRejection("unknown_product", `No product ${line.productId} yet: send its product.created first, then this again`, { [`data.lines.${i}.productId`]: "no such product yet" });
    }
    if (product.vendor_id !== vendorId) {
      throw new EventRejection("invalid_input", `data.lines.${i}.artistId: product ${line.productId} belongs to another artist`, {
        [`data.lines.${i}.artistId`]: "the product belongs to another artist",
      });
    }
  }
  const paidAt = new Date(data.paidAt).toISOString();
  await placeOrders(c.trx, orderInputs(data, vendors, products, await feeRateBasisPointsAt(c.trx, paidAt)), c.clock);
  return "applied";
}

/**
 * The paid orders of several events placed together, in the caller's transaction: what payOrder
 * does for each, with every row read once for all and the orders placed by one placeOrders. Reads
 * first and answers, per event, whether it is placed with the others (`placeable`); false is an
 * event to be applied on its own, whose answer is not simply "applied" (its order was recorded
 * before; it names an artist or product the panel does not know, or another artist's product):
 * payOrder gives it. `place()` then places the placeable ones; it ends with the rows every sale
 * shares, so the caller writes its own rows before it. The events must have distinct orderIds.
 */
export async function prepareOrdersTogether(trx: Executor, clock: Clock, orders: readonly OrderPaidData[]): Promise<{ placeable: readonly boolean[]; place: () => Promise<void> }> {
  const recorded = await findRecordedOrderIds(
    trx,
    orders.map((o) => o.orderId),
  );
  const { vendors, products } = await linesRows(trx, orders);
  const placeable = orders.map(
    (o) =>
      !recorded.has(o.orderId) &&
      o.lines.every((line) => {
        const vendorId = vendors.get(line.artistId);
        return vendorId !== undefined && products.get(line.productId)?.vendor_id === vendorId;
      }),
  );
  const placed = orders.filter((_, i) => placeable[i]);
  const paidAt = (o: OrderPaidData) => new Date(o.paidAt).toISOString();
  const fees = await feeRatesBasisPointsAt(trx, placed.map(paidAt));
  const place = async () => {
    await placeOrders(
      trx,
      placed.flatMap((o) => orderInputs(o, vendors, products, fees.get(paidAt(o))!)),
      clock,
    );
  };
  return { placeable, place };
}

/** The panel's vendor ids and products that the lines of these orders name, by the storefront's ids. */
async function linesRows(trx: Executor, orders: readonly OrderPaidData[]) {
  const lines = orders.flatMap((o) => o.lines);
  const vendors = await findVendorIdsByExternalIds(trx, [...new Set(lines.map((l) => l.artistId))]);
  const products = new Map((await findProductsByExternalIds(trx, [...new Set(lines.map((l) => l.productId))])).map((p) => [p.external_id!, p]));
  return { vendors, products };
}

/** The order rows' inputs of a paid order whose artists and products are known. */
function orderInputs(data: OrderPaidData, vendors: Map<string, string>, products: Map<string, { id: string }>, feeRateBasisPoints: number): PlaceOrderInput[] {
  const paidAt = new Date(data.paidAt).toISOString();
  return data.lines.map((line) => ({
    vendorId: vendors.get(line.artistId)!,
    productId: products.get(line.productId)!.id,
    quantity: line.quantity,
    unitPriceCents: line.unitPriceCents,
    feeRateBasisPoints,
    createdAt: paidAt,
    customerEmail: data.customerEmail,
    externalOrderId: data.orderId,
    externalLineId: line.lineId,
    paymentIntentId: data.paymentIntentId ?? null,
    chargeId: data.chargeId ?? null,
  }));
}

/**
 * A refund: split over the order's lines as the event says, or else over its lines in order of
 * their ids up to what each still has paid. Refunds add up and never exceed what was paid.
 */
async function refundOrder(c: EventContext, data: OrderRefundedData): Promise<AppliedOutcome> {
  const rows = await findOrderRows(c.trx, data.orderId);
  if (rows.length === 0) throw new EventRejection("unknown_order", `No order ${data.orderId} yet: send its order.paid first, then this again`, { "data.orderId": "no such order yet" });
  if (
    (
      await findRefundedOrderIds(
        c.trx,
        data.refundId,
        rows.map((r) => r.id),
      )
    ).length > 0
  )
    return "duplicate";
  const paid = (r: (typeof rows)[number]) => (r.status === "paid" ? Number(r.gross_cents) : 0);
  const parts: Array<{ orderId: string; amount: number }> = [];
  if (data.lines) {
    const byLine = new Map(rows.map((r) => [r.external_line_id, r]));
    for (const [i, l] of data.lines.entries()) {
      const row = byLine.get(l.lineId);
      if (!row) throw new EventRejection("invalid_input", `data.lines.${i}.lineId: order ${data.orderId} has no line ${l.lineId}`, { [`data.lines.${i}.lineId`]: "no such line in the order" });
      if (l.amountCents > paid(row)) {
        throw new EventRejection("exceeds_paid", `Line ${l.lineId} has ${paid(row)} cents left to refund, not ${l.amountCents}`, {
          [`data.lines.${i}.amountCents`]: `exceeds the ${paid(row)} cents still paid`,
        });
      }
      parts.push({ orderId: row.id, amount: l.amountCents });
    }
  } else {
    const left = rows.reduce((sum, r) => sum + paid(r), 0);
    if (data.amountCents > left)
      throw new EventRejection("exceeds_paid", `Order ${data.orderId} has ${left} cents left to refund, not ${data.amountCents}`, { "data.amountCents": `exceeds the ${left} cents still paid` });
    let rest = data.amountCents;
    for (const r of rows) {
      const take = Math.min(rest, paid(r));
      if (take > 0) parts.push({ orderId: r.id, amount: take });
      rest -= take;
    }
  }
  for (const p of parts) await refundOrderPart(c.trx, p.orderId, { refundId: data.refundId, amountCents: p.amount, refundedAt: c.occurredAt, reason: data.reason ?? null });
  return "applied";
}

/**
 * A subscription payment: the first starts the subscription, a later one at the same monthly
 * figure moves its paid-up period, one at another figure ends the old subscription where the new
 * period starts and starts the new one (so each day's change of recurring revenue stays exact).
 */
async function paySubscription(c: EventContext, data: SubscriptionPaidData): Promise<AppliedOutcome> {
  const thing = `subscription:${data.subscriptionId}`;
  if ((await checkVersion(c, thing)) === "stale") return "stale";
  const vendorId = await requireVendorId(c, data.artistId, "data.artistId");
  const start = new Date(data.periodStart).toISOString();
  const end = new Date(data.periodEnd).toISOString();
  const months = Math.max(1, Math.round((Date.parse(end) - Date.parse(start)) / MONTH_MS));
  const monthly = Math.round(data.amountCents / months);
  const active = await findActiveSubscription(c.trx, data.subscriptionId);
  if (active && active.vendor_id !== vendorId)
    throw new EventRejection("invalid_input", `data.artistId: subscription ${data.subscriptionId} belongs to another artist`, { "data.artistId": "the subscription belongs to another artist" });
  if (active && Number(active.monthly_fee_cents) === monthly) {
    if (active.current_period_end === null || active.current_period_end < end) await extendSubscriptionPeriod(c.trx, active.id, end);
  } else {
    const from = active && active.started_at > start ? active.started_at : start;
    if (active) await cancelSubscription(c.trx, active.id, c.clock, from);
    await startSubscription(c.trx, { vendorId, plan: "storefront", monthlyFeeCents: monthly, startedAt: from, externalId: data.subscriptionId, currentPeriodEnd: end }, c.clock);
  }
  await writeVersion(c.trx, thing, c.occurredAt, false);
  return "applied";
}

async function setVisits(c: EventContext, data: StoreVisitsData): Promise<AppliedOutcome> {
  const thing = `visits:${data.artistId}:${data.day}`;
  if ((await checkVersion(c, thing)) === "stale") return "stale";
  const vendorId = await requireVendorId(c, data.artistId, "data.artistId");
  await setDayVisits(c.trx, vendorId, data.day, data.visits);
  await writeVersion(c.trx, thing, c.occurredAt, false);
  return "applied";
}

/** The storefront's error goes through the panel's own recorder: the same redaction and flood budgets (an entry over budget is dropped and counted). */
async function reportError(c: EventContext, data: ErrorReportedData): Promise<AppliedOutcome> {
  const recorder = new ErrorRecorder(c.trx, c.clock, new RateLimiter(c.trx, c.clock));
  await recorder.record({
    level: data.level,
    message: data.message,
    endpoint: data.endpoint ?? null,
    method: data.method ?? null,
    statusCode: data.statusCode ?? null,
    userEmail: data.userEmail ?? null,
    ipAddress: data.ipAddress ?? null,
    userAgent: data.userAgent ?? null,
    stackTrace: data.stackTrace ?? null,
    context: { ...(data.context ?? {}), reportedBy: "storefront" },
    source: c.source,
  });
  return "applied";
}

/** Applies one valid event inside its transaction: only through the ledger and the error recorder. */
export function applyEvent(c: EventContext, type: StorefrontEventType, data: unknown): Promise<AppliedOutcome> {
  switch (type) {
    case "artist.created":
    case "artist.updated":
      return upsertArtist(c, data as ArtistData);
    case "artist.deleted":
      return deleteArtist(c, (data as { artistId: string }).artistId);
    case "product.created":
    case "product.updated":
      return upsertProduct(c, data as ProductData);
    case "product.deleted":
      return removeProduct(c, (data as { productId: string }).productId);
    case "order.paid":
      return payOrder(c, data as OrderPaidData);
    case "order.refunded":
      return refundOrder(c, data as OrderRefundedData);
    case "subscription.paid":
      return paySubscription(c, data as SubscriptionPaidData);
    case "store.visits":
      return setVisits(c, data as StoreVisitsData);
    case "error.reported":
      return reportError(c, data as ErrorReportedData);
  }
}
