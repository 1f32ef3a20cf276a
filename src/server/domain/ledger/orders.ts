import { sql } from "kysely";
import type { Clock } from "../../platform/clock.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Order } from "../../platform/db/schema.ts";
import { COUNTERS } from "./counters.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { dayOf, isoTime, isoTimeOrNow, LedgerError } from "./ledger-error.ts";
import { addEarnings } from "./payouts.ts";
import { addToProductSales } from "./period-totals.ts";
import { addToDailyVendorTotals, addToVendorTotals, refreshLastSaleAt, sumByKey } from "./rollups.ts";
import { SharedRows } from "./shared-rows.ts";

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
  const [order] = await placeOrders(db, [input], clock);
  return order!;
}

/** Rows of one insert into orders: well under both databases' limits on a statement's parameters. */
const ORDER_ROWS_PER_INSERT = 500;

/**
 * Records paid orders as placeOrder does each, in one transaction, with one statement per table for
 * all of them: every rollup row they move is written once, with their sum, and each table's rows in
 * key order, so transactions that share rows take their locks in the same order. A storefront batch
 * of many orders costs about the statements of one (docs/performance.md "Ingestion").
 */
export async function placeOrders(db: Executor, inputs: readonly PlaceOrderInput[], clock: Clock): Promise<Order[]> {
  for (const input of inputs) checkOrderInput(input);
  if (inputs.length === 0) return [];
  return inTransaction(db, async (trx) => {
    const productIds = [...new Set(inputs.map((i) => i.productId))];
    const products = new Map((await trx.selectFrom("products").select(["id", "vendor_id", "name", "price_cents"]).where("id", "in", productIds).execute()).map((p) => [p.id, p]));
    const orders = inputs.map((input) => {
      const product = products.get(input.productId);
      if (!product) throw new LedgerError("not_found", `Product ${input.productId} not found`);
      if (product.vendor_id !== input.vendorId) {
        throw new LedgerError("invalid_input", `Product ${input.productId} does not belong to vendor ${input.vendorId}`);
      }
      return paidOrder(input, product, clock);
    });
    for (let i = 0; i < orders.length; i += ORDER_ROWS_PER_INSERT) {
      await trx
        .insertInto("orders")
        .values(orders.slice(i, i + ORDER_ROWS_PER_INSERT))
        .execute();
    }
    const shared = new SharedRows().addToCounters({ [COUNTERS.ordersTotal]: orders.length, [COUNTERS.ordersPaid]: orders.length });
    await applyPaidOrders(trx, orders, 1, shared);
    await shared.writeTo(trx);
    return orders;
  });
}

function checkOrderInput(input: PlaceOrderInput): void {
  if (!Number.isInteger(input.quantity) || input.quantity <= 0) {
    throw new LedgerError("invalid_input", "quantity must be a positive integer");
  }
  if (!Number.isInteger(input.feeRateBasisPoints) || input.feeRateBasisPoints < 0 || input.feeRateBasisPoints > 10_000) {
    throw new LedgerError("invalid_input", "feeRateBasisPoints must be an integer between 0 and 10000");
  }
}

/** The order row of a paid input, its gross from the input or else the product's price. */
function paidOrder(input: PlaceOrderInput, product: { id: string; name: string; price_cents: number | string }, clock: Clock): Order {
  const gross = input.grossCents ?? (input.unitPriceCents ?? Number(product.price_cents)) * input.quantity;
  if (!Number.isInteger(gross) || gross < 0) throw new LedgerError("invalid_input", "gross must be a non-negative integer of cents");
  const createdAt = isoTimeOrNow(input.createdAt, clock);
  return {
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
}

/**
 * Adds (sign 1) or takes back (sign -1) paid orders in every rollup that counts sales, one statement
 * per table: the vendors' and products' rows now, the platform's day and the balance totals into
 * `shared`, for the caller to write last.
 */
async function applyPaidOrders(trx: Executor, orders: readonly Order[], sign: 1 | -1, shared: SharedRows): Promise<void> {
  const salesOf = (o: Order) => ({ grossCents: sign * o.gross_cents, orders: sign, feesCents: sign * o.fee_cents, itemsSold: sign * o.quantity });
  for (const o of orders) shared.addToPlatformDay(dayOf(o.created_at), salesOf(o));
  await addToDailyVendorTotals(
    trx,
    orders.map((o) => ({ vendorId: o.vendor_id, day: dayOf(o.created_at), deltas: salesOf(o) })),
  );
  await addToVendorTotals(
    trx,
    orders.map((o) => ({ vendorId: o.vendor_id, deltas: salesOf(o), saleAt: sign === 1 ? o.created_at : undefined })),
  );
  // What the vendor earns from the sale (gross − the fee recorded on it) is owed to it until paid out.
  shared.addToBalanceTotals(
    await addEarnings(
      trx,
      orders.map((o) => ({ vendorId: o.vendor_id, cents: sign * (o.gross_cents - o.fee_cents) })),
    ),
  );
  const sold = orders.filter((o): o is Order & { product_id: string } => o.product_id !== null);
  await addToProductTotals(
    trx,
    sold.map((o) => ({ productId: o.product_id, units: sign * o.quantity, revenueCents: sign * o.gross_cents })),
  );
  // The product's day and the rolling windows of the top lists (docs/decisions/0013-top-lists.md).
  await addToProductSales(
    trx,
    sold.map((o) => ({ productId: o.product_id, vendorId: o.vendor_id, day: dayOf(o.created_at), grossCents: sign * o.gross_cents, orders: sign, units: sign * o.quantity })),
  );
  if (sign === -1) {
    for (const o of orders) {
      // Only when the newest sale goes away does last_sale_at move back.
      const totals = await trx.selectFrom("vendor_totals").select("last_sale_at").where("vendor_id", "=", o.vendor_id).executeTakeFirst();
      if (totals?.last_sale_at === o.created_at) await refreshLastSaleAt(trx, o.vendor_id);
    }
  }
}

/** Adds to products' units sold and revenue: one statement for all of them, each product's sum once. */
async function addToProductTotals(trx: Executor, sales: ReadonlyArray<{ productId: string; units: number; revenueCents: number }>): Promise<void> {
  const summed = sumByKey(
    sales,
    (s) => s.productId,
    (s) => ({ units: s.units, revenueCents: s.revenueCents }),
  ).filter(([, s]) => s.deltas.units !== 0 || s.deltas.revenueCents !== 0);
  if (summed.length === 0) return;
  const byProduct = (field: "units" | "revenueCents") =>
    sql<number>`case ${sql.ref("id")} ${sql.join(
      summed.map(([productId, s]) => sql`when ${productId} then cast(${s.deltas[field]} as bigint)`),
      sql` `,
    )} else 0 end`;
  await trx
    .updateTable("products")
    .set((eb) => ({ units_sold: eb("units_sold", "+", byProduct("units")), revenue_cents: eb("revenue_cents", "+", byProduct("revenueCents")) }))
    .where(
      "id",
      "in",
      summed.map(([productId]) => productId),
    )
    .execute();
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
    const shared = new SharedRows().addToCounters({ [COUNTERS.ordersPaid]: -1 });
    // Refunds are counted on the day they happen (the overview's "refunds" of a period).
    if (status === "refunded") shared.addToPlatformDay(dayOf(updatedAt), { refundsCents: normalised.gross_cents });
    await applyPaidOrders(trx, [normalised], -1, shared);
    await shared.writeTo(trx);
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
    const shared = new SharedRows().addToPlatformDay(dayOf(refundedAt), { refundsCents: input.amountCents });
    // The sale stays a sale of the remainder: gross and fee move by the difference, on the order's day.
    const dGross = gross - order.gross_cents;
    const dFee = fee - order.fee_cents;
    const sales = { grossCents: dGross, feesCents: dFee };
    const day = dayOf(order.created_at);
    shared.addToPlatformDay(day, sales);
    await addToDailyVendorTotals(trx, [{ vendorId: order.vendor_id, day, deltas: sales }]);
    await addToVendorTotals(trx, [{ vendorId: order.vendor_id, deltas: sales }]);
    shared.addToBalanceTotals(await addEarnings(trx, [{ vendorId: order.vendor_id, cents: dGross - dFee }]));
    if (order.product_id !== null) {
      await addToProductTotals(trx, [{ productId: order.product_id, units: 0, revenueCents: dGross }]);
      await addToProductSales(trx, [{ productId: order.product_id, vendorId: order.vendor_id, day, grossCents: dGross, orders: 0, units: 0 }]);
    }
    const remaining: Order = { ...order, gross_cents: gross, fee_cents: fee };
    if (gross === 0) {
      // Nothing remains paid: the order leaves the sales counts (its gross and fee are already 0).
      shared.addToCounters({ [COUNTERS.ordersPaid]: -1 });
      await applyPaidOrders(trx, [remaining], -1, shared);
    }
    await shared.writeTo(trx);
    return gross > 0 ? remaining : { ...remaining, status: "refunded", updated_at: refundedAt };
  });
}
