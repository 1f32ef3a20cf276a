import type { Clock } from "../platform/clock.ts";
import { placeOrder, refundOrderPart } from "../domain/ledger/orders.ts";
import type { Executor } from "../platform/db/executor.ts";
import type { Order, Product } from "../platform/db/schema.ts";

/** Every this many demo orders has a second line from another artist (one storefront order, two artists). */
const SECOND_LINE_EVERY = 25;
/** Every this many, that second line is refunded in part, with a reason (what the Orders screen's timeline shows). */
const PART_REFUND_EVERY = 50;

/** The storefront's order id of the demo's `n`th order (docs/integration.md: one row per order line). */
export const demoOrderId = (n: number) => `ord_demo_${String(n).padStart(5, "0")}`;

/** The Stripe payment of the demo's `n`th order (every line of it): refunds from the panel are made on it. */
export const demoPayment = (n: number) => ({ paymentIntentId: `pi_demo_${String(n).padStart(5, "0")}`, chargeId: `ch_demo_${String(n).padStart(5, "0")}` });

/**
 * Gives some demo orders a second line, from another artist's product listed by then, bought by
 * the same buyer at the same moment; every other one of those has part of that line refunded.
 * Chosen by the order's number, not by the seed's random stream, so the rest of the demo stays
 * as it was. The line's id is the first line's with its last digits replaced (deterministic, unique).
 */
export async function addDemoSecondLine(db: Executor, first: Order, n: number, candidates: readonly Product[], clock: Clock): Promise<number> {
  if (n % SECOND_LINE_EVERY !== 0) return 0;
  const others = candidates.filter((p) => p.vendor_id !== first.vendor_id);
  if (others.length === 0) return 0;
  const product = others[n % others.length]!;
  const line = await placeOrder(
    db,
    {
      id: `${first.id.slice(0, -12)}${"0".repeat(11)}2`,
      vendorId: product.vendor_id,
      productId: product.id,
      quantity: 1,
      feeRateBasisPoints: first.fee_rate_basis_points,
      createdAt: first.created_at,
      customerEmail: first.customer_email,
      externalOrderId: first.external_order_id,
      externalLineId: "line_2",
      paymentIntentId: first.payment_intent_id,
      chargeId: first.charge_id,
    },
    clock,
  );
  if (n % PART_REFUND_EVERY === 0 && line.gross_cents > 100) {
    await refundOrderPart(db, line.id, {
      refundId: `re_demo_${String(n).padStart(5, "0")}`,
      amountCents: Math.min(1000, Math.floor(line.gross_cents / 2)),
      refundedAt: new Date(Math.min(clock.now().getTime(), Date.parse(first.created_at) + 2 * 86_400_000)).toISOString(),
      reason: "Arrived broken: the buyer sent a photo",
    });
  }
  return 1;
}
