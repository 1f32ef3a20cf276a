import type { Transaction } from "kysely";
import { applyDisputeState } from "../domain/ledger/disputes.ts";
import type { DB } from "../platform/db/schema.ts";

const DAY_MS = 86_400_000;

/**
 * Stripe disputes in every state (docs/product.md §19.7), applied through the ledger as Stripe's
 * charge.dispute.* events apply them: two open (the artists' shares held, evidence due in a few
 * days), one won (released), one lost with Stripe's fee paid by the platform and one lost with the
 * fee charged to the artist. Chosen and dated from the day's start, with fixed dispute ids.
 */
export async function seedDemoDisputes(trx: Transaction<DB>, options: { now: Date }): Promise<number> {
  const today = Math.floor(options.now.getTime() / DAY_MS) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  const lines = await trx
    .selectFrom("orders")
    .select(["charge_id", "payment_intent_id", "gross_cents", "created_at"])
    .where("status", "=", "paid")
    .where("charge_id", "is not", null)
    .where("external_line_id", "=", "line_1")
    .where("refund_reserved_cents", "=", 0)
    .where("created_at", ">=", iso(today - 40 * DAY_MS))
    .where("created_at", "<", iso(today - 8 * DAY_MS))
    .where("gross_cents", ">", 3_000)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(5)
    .execute();
  const plans = [
    { status: "needs_response", reason: "product_not_received", dueInDays: 5, closeAt: null, fee: "platform" },
    { status: "warning_needs_response", reason: "fraudulent", dueInDays: 9, closeAt: null, fee: "platform" },
    { status: "won", reason: "product_unacceptable", dueInDays: -6, closeAt: 4, fee: "platform" },
    { status: "lost", reason: "fraudulent", dueInDays: -10, closeAt: 3, fee: "platform" },
    { status: "lost", reason: "product_not_received", dueInDays: -12, closeAt: 2, fee: "artist" },
  ] as const;
  let made = 0;
  for (const [i, line] of lines.entries()) {
    const plan = plans[i]!;
    const openedAt = Date.parse(line.created_at) + 3 * DAY_MS;
    const base = {
      id: `dp_1Demo${String(i + 1).padStart(18, "0")}`,
      chargeId: line.charge_id!,
      paymentIntentId: line.payment_intent_id,
      reason: plan.reason,
      amountCents: Number(line.gross_cents),
      currency: "usd",
      evidenceDueBy: iso(today + plan.dueInDays * DAY_MS + 23 * 3_600_000 + 59 * 60_000),
      feeCents: 1_500,
      openedAt: iso(openedAt),
    };
    // Opened first (held), then closed as Stripe closes it: each state applied as its event would be.
    await applyDisputeState(trx, { ...base, status: "needs_response", asOf: iso(openedAt) }, plan.fee, iso(openedAt));
    if (plan.closeAt !== null) {
      const closedAt = today - plan.closeAt * DAY_MS;
      await applyDisputeState(trx, { ...base, status: plan.status, asOf: iso(closedAt) }, plan.fee, iso(closedAt));
    } else if (plan.status !== "needs_response") {
      await applyDisputeState(trx, { ...base, status: plan.status, asOf: iso(openedAt + 60_000) }, plan.fee, iso(openedAt + 60_000));
    }
    made++;
  }
  return made;
}
