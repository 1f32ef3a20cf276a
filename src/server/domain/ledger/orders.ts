import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Order } from "../../platform/db/schema.ts";
import { COUNTERS, incrementCounters } from "./counters.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf, isoTime, isoTimeOrNow, LedgerError } from "./ledger-error.ts";
import { addToPayoutAccount } from "./payouts.ts";
import { addToProductSales } from "./period-totals.ts";
import { addToDailyPlatformTotals, addToDailyVendorTotals, addToVendorTotals, refreshLastSaleAt } from "./rollups.ts";

export interface PlaceOrderInput {
  id?: string;
  vendorId: string;
  productId: string;
  quantity: number;
  /** Unit price in cents; defaults to the product's current price. Ignored when grossCents is given. */
  unitPriceCents?: number;
  /** Total charged in cents; defaults to unit price × quantity. */
  grossCents?: number;
  /** The platform fee rate in force now (settings.queries currentFeeRateBasisPoints); 150 = 1.5 %. */
  feeRateBasisPoints: number;
  /** Defaults to the clock's now. */
  createdAt?: Date | string;
  customerEmail?: string | null;
  /** The storefront's order and line this order is (migration 023). */
  externalOrderId?: string | null;
  externalLineId?: string | null;
  /** The Stripe payment intent and charge the buyer paid with (migration 028): refunds and disputes find the order by them. */
  paymentIntentId?: string | null;
  chargeId?: string | null;
}

/** Platform fee of an order: the gross at the rate in force, rounded to the nearest cent. */
export function feeCents(grossCents: number, feeRateBasisPoints: number): number {
  return Math.round((grossCents * feeRateBasisPoints) / 10_000);
}

/**
 * Records a paid order and adds it to every rollup: the platform's and vendor's day, the
 * vendor's lifetime totals (last_sale_at included), the product's units and revenue, counters.
 * The fee is fixed on the order, so a later change of the fee setting never rewrites history.
 */
export async function placeOrder(db: Executor, input: PlaceOrderInput, clock: Clock): Promise<Order> {
  if (!Number.isInteger(input.quantity) || input.quantity <= 0) {
    throw new LedgerError("invalid_input", "quantity must be a positive integer");
  }
  if (!Number.isInteger(input.feeRateBasisPoints) || input.feeRateBasisPoints < 0 || input.feeRateBasisPoints > 10_000) {
    throw new LedgerError("invalid_input", "feeRateBasisPoints must be an integer between 0 and 10000");
  }
  return inTransaction(db, async (trx) => {
    const product = await trx.selectFrom("products").select(["id", "vendor_id", "name", "price_cents"]).where("id", "=", input.productId).executeTakeFirst();
    if (!product) throw new LedgerError("not_found", `Product ${input.productId} not found`);
    if (product.vendor_id !== input.vendorId) {
      throw new LedgerError("invalid_input", `Product ${input.productId} does not belong to vendor ${input.vendorId}`);
    }
    const gross = input.grossCents ?? (input.unitPriceCents ?? Number(product.price_cents)) * input.quantity;
    if (!Number.isInteger(gross) || gross < 0) throw new LedgerError("invalid_input", "gross must be a non-negative integer of cents");
    const createdAt = isoTimeOrNow(input.createdAt, clock);
    const order: Order = {
      id: input.id ?? newId(),
      vendor_id: input.vendorId,
      product_id: product.id,
      product_name: product.name,
      quantity: input.quantity,
      gross_cents: gross,
      fee_cents: feeCents(gross, input.feeRateBasisPoints),
      fee_rate_basis_points: input.feeRateBasisPoints,
      status: "paid",
      customer_email: input.customerEmail ?? null,
      created_at: createdAt,
      updated_at: createdAt,
      external_order_id: input.externalOrderId ?? null,
      external_line_id: input.externalLineId ?? null,
      payment_intent_id: input.paymentIntentId ?? null,
      charge_id: input.chargeId ?? null,
      refund_reserved_cents: 0,
      refunded_cents: 0,
      dispute_open: 0,
    };
    await trx.insertInto("orders").values(order).execute();
    await applyPaidOrder(trx, order, 1);
    await incrementCounters(trx, { [COUNTERS.ordersTotal]: 1, [COUNTERS.ordersPaid]: 1 });
    return order;
  });
}

/** Adds (sign 1) or takes back (sign -1) a paid order in every rollup that counts sales. */
async function applyPaidOrder(trx: Executor, o: Order, sign: 1 | -1): Promise<void> {
  const sales = { grossCents: sign * o.gross_cents, orders: sign, feesCents: sign * o.fee_cents, itemsSold: sign * o.quantity };
  const day = dayOf(o.created_at);
  await addToDailyPlatformTotals(trx, day, sales);
  await addToDailyVendorTotals(trx, o.vendor_id, day, sales);
  await addToVendorTotals(trx, o.vendor_id, sales, sign === 1 ? o.created_at : undefined);
  // What the vendor earns from the sale (gross − the fee recorded on it) is owed to it until paid out.
  await addToPayoutAccount(trx, o.vendor_id, { earnedCents: sign * (o.gross_cents - o.fee_cents) });
  if (o.product_id !== null) {
    await trx
      .updateTable("products")
      .set((eb) => ({
        units_sold: eb("units_sold", "+", sign * o.quantity),
        revenue_cents: eb("revenue_cents", "+", sign * o.gross_cents),
      }))
      .where("id", "=", o.product_id)
      .execute();
    // The product's day and the rolling windows of the top lists (docs/decisions/0013-top-lists.md).
    await addToProductSales(trx, { productId: o.product_id, vendorId: o.vendor_id, day, grossCents: sign * o.gross_cents, orders: sign, units: sign * o.quantity });
  }
  if (sign === -1) {
    // Only when the newest sale goes away does last_sale_at move back.
    const totals = await trx.selectFrom("vendor_totals").select("last_sale_at").where("vendor_id", "=", o.vendor_id).executeTakeFirst();
    if (totals?.last_sale_at === o.created_at) await refreshLastSaleAt(trx, o.vendor_id);
  }
}

/**
 * Moves a paid order to 'refunded' or 'cancelled' and takes it out of the rollups.
 * Unknown id: not_found; an order that is not paid any more: invalid_state.
 */
async function unpayOrder(db: Executor, orderId: string, status: "refunded" | "cancelled", clock: Clock): Promise<Order> {
  return inTransaction(db, async (trx) => {
    const order = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
    if (!order) throw new LedgerError("not_found", `Order ${orderId} not found`);
    if (order.status !== "paid") throw new LedgerError("invalid_state", `Order ${orderId} is ${order.status}, not paid`);
    const updatedAt = clock.now().toISOString();
    await trx.updateTable("orders").set({ status, updated_at: updatedAt }).where("id", "=", orderId).execute();
    const normalised: Order = { ...order, gross_cents: Number(order.gross_cents), fee_cents: Number(order.fee_cents) };
    await applyPaidOrder(trx, normalised, -1);
    // Refunds are counted on the day they happen (the overview's "refunds" of a period).
    if (status === "refunded") await addToDailyPlatformTotals(trx, dayOf(updatedAt), { refundsCents: normalised.gross_cents });
    await incrementCounters(trx, { [COUNTERS.ordersPaid]: -1 });
    return { ...normalised, status, updated_at: updatedAt };
  });
}

export function refundOrder(db: Executor, orderId: string, clock: Clock): Promise<Order> {
  return unpayOrder(db, orderId, "refunded", clock);
}

export function cancelOrder(db: Executor, orderId: string, clock: Clock): Promise<Order> {
  return unpayOrder(db, orderId, "cancelled", clock);
}

export interface PartRefundInput {
  /** The storefront's refund id: one refund is recorded once per order row. */
  refundId: string;
  amountCents: number;
  /** When the refund was made (its day is the refund's day in the overview). */
  refundedAt: Date | string;
  reason?: string | null;
  /** The panel's refund this is (ledger/refunds.ts); absent for the storefront's own. */
  panelRefundId?: string | null;
  /** The payout that had already carried the line: the artist's share comes off their next payout. */
  nettedPayoutId?: string | null;
}

/**
 * Refunds part (or the rest) of a paid order, as the storefront did: the refund is recorded as an
 * order_refunds row counted on its own day, and the order's gross becomes what remains paid, its
 * fee the rate recorded on it applied to that remainder; every sales rollup, the product's revenue
 * and the vendor's earnings move by the difference. A refund that takes what remains moves the order
 * to 'refunded' and out of the sales counts (orders, items). Refunding more than remains paid, or
 * an order that is not paid, is invalid_state; an unknown order not_found.
 */
export async function refundOrderPart(db: Executor, orderId: string, input: PartRefundInput): Promise<Order> {
  if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) throw new LedgerError("invalid_input", "amountCents must be a positive integer");
  const refundedAt = isoTime(input.refundedAt);
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
    if (!row) throw new LedgerError("not_found", `Order ${orderId} not found`);
    const order: Order = { ...row, gross_cents: Number(row.gross_cents), fee_cents: Number(row.fee_cents) };
    if (order.status !== "paid") throw new LedgerError("invalid_state", `Order ${orderId} is ${order.status}, not paid`);
    if (input.amountCents > order.gross_cents) throw new LedgerError("invalid_state", `Refund of ${input.amountCents} exceeds the ${order.gross_cents} cents still paid on order ${orderId}`);
    const gross = order.gross_cents - input.amountCents;
    const fee = feeCents(gross, order.fee_rate_basis_points);
    const updated = await trx
      .updateTable("orders")
      .set((eb) => ({
        gross_cents: gross,
        fee_cents: fee,
        refunded_cents: eb("refunded_cents", "+", input.amountCents),
        ...(gross === 0 ? { status: "refunded" as const, updated_at: refundedAt } : {}),
      }))
      .where("id", "=", orderId)
      .where("status", "=", "paid")
      .where("gross_cents", "=", order.gross_cents)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new LedgerError("invalid_state", `Order ${orderId} changed meanwhile: try again`);
    await trx
      .insertInto("order_refunds")
      .values({
        id: newId(),
        order_id: orderId,
        external_refund_id: input.refundId,
        amount_cents: input.amountCents,
        refunded_at: refundedAt,
        reason: input.reason ?? null,
        panel_refund_id: input.panelRefundId ?? null,
        netted_payout_id: input.nettedPayoutId ?? null,
      })
      .execute();
    await addToDailyPlatformTotals(trx, dayOf(refundedAt), { refundsCents: input.amountCents });
    // The sale stays a sale of the remainder: gross and fee move by the difference, on the order's day.
    const dGross = gross - order.gross_cents;
    const dFee = fee - order.fee_cents;
    const sales = { grossCents: dGross, feesCents: dFee };
    const day = dayOf(order.created_at);
    await addToDailyPlatformTotals(trx, day, sales);
    await addToDailyVendorTotals(trx, order.vendor_id, day, sales);
    await addToVendorTotals(trx, order.vendor_id, sales);
    await addToPayoutAccount(trx, order.vendor_id, { earnedCents: dGross - dFee });
    if (order.product_id !== null) {
      await trx
        .updateTable("products")
        .set((eb) => ({ revenue_cents: eb("revenue_cents", "+", dGross) }))
        .where("id", "=", order.product_id)
        .execute();
      await addToProductSales(trx, { productId: order.product_id, vendorId: order.vendor_id, day, grossCents: dGross, orders: 0, units: 0 });
    }
    const remaining: Order = { ...order, gross_cents: gross, fee_cents: fee };
    if (gross > 0) return remaining;
    // Nothing remains paid: the order leaves the sales counts (its gross and fee are already 0).
    await applyPaidOrder(trx, remaining, -1);
    await incrementCounters(trx, { [COUNTERS.ordersPaid]: -1 });
    return { ...remaining, status: "refunded", updated_at: refundedAt };
  });
}
