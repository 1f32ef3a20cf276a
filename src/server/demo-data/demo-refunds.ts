import type { Transaction } from "kysely";
import { markRefundFailed, markRefundSucceeded, markRefundUnknown, notePendingAtStripe, payoutThatCarried, reserveRefund } from "../domain/ledger/refunds.ts";
import type { DB } from "../platform/db/schema.ts";

const DAY_MS = 86_400_000;

interface DemoLine {
  id: string;
  vendor_id: string;
  gross_cents: number;
  created_at: string;
  external_order_id: string | null;
  payment_intent_id: string | null;
}

/**
 * Refunds from the panel in every state (docs/product.md "Refunds from the panel"), made through
 * the ledger as the panel makes them: a part refund of one line of a two-artist order; a line
 * refunded after its artist's payout carried it (netted from their next payout); one Stripe
 * refused; one Stripe is still finishing (pending); one whose outcome is unknown, waiting for the
 * settle to ask Stripe. The refund ids and
 * Stripe ids are fixed, so the demo is the same every time.
 */
export async function seedDemoRefunds(trx: Transaction<DB>, options: { now: Date; adminEmail: string }): Promise<number> {
  const nowMs = options.now.getTime();
  // Chosen and dated from the day's start, so a later seed the same day makes the same refunds.
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  const admin = await trx.selectFrom("users").select("id").where("email", "=", options.adminEmail).executeTakeFirst();
  const paidLines = async (fromDaysAgo: number, toDaysAgo: number, limit: number, secondLine = false): Promise<DemoLine[]> =>
    (
      await trx
        .selectFrom("orders")
        .select(["id", "vendor_id", "gross_cents", "created_at", "external_order_id", "payment_intent_id"])
        .where("status", "=", "paid")
        .where("payment_intent_id", "is not", null)
        .where("created_at", ">=", iso(today - fromDaysAgo * DAY_MS))
        .where("created_at", "<", iso(today - toDaysAgo * DAY_MS))
        .where("external_line_id", "=", secondLine ? "line_2" : "line_1")
        .where("gross_cents", ">", 2_000)
        .orderBy("created_at")
        .orderBy("id")
        .limit(limit)
        .execute()
    ).map((r) => ({ ...r, gross_cents: Number(r.gross_cents) }));
  let made = 0;
  const ask = async (n: number, line: DemoLine, amountCents: number, reason: string, atMs: number) => {
    await reserveRefund(trx, {
      id: `0193d000-0000-7000-8000-${String(n).padStart(12, "0")}`,
      paymentIntentId: line.payment_intent_id!,
      externalOrderId: line.external_order_id,
      reason,
      createdBy: admin?.id ?? null,
      createdByEmail: options.adminEmail,
      createdAt: iso(atMs),
      lines: [{ orderId: line.id, amountCents }],
    });
    made++;
    return `0193d000-0000-7000-8000-${String(n).padStart(12, "0")}`;
  };

  // A part refund of one line of a recent order with two artists.
  const [twoArtists] = await paidLines(20, 3, 1, true);
  if (twoArtists) {
    const at = Date.parse(twoArtists.created_at) + 2 * DAY_MS;
    const id = await ask(1, twoArtists, Math.floor(twoArtists.gross_cents / 2), "Arrived with a cracked frame: half back, the buyer keeps it", at);
    await markRefundSucceeded(trx, id, "re_3DemoPartRefund0001", iso(at + 4_000));
  }
  // A line its artist had already been paid for: refunded whole after the payout, netted from the next.
  for (const line of await paidLines(45, 32, 20)) {
    const carried = await payoutThatCarried(trx, line.vendor_id, line.created_at);
    if (carried?.status !== "paid") continue;
    const at = today - 10 * DAY_MS;
    const id = await ask(2, line, line.gross_cents, "Never delivered: the carrier lost the parcel", at);
    await markRefundSucceeded(trx, id, "re_3DemoNettedRefund002", iso(at + 3_000));
    break;
  }
  const recent = await paidLines(6, 1, 3);
  // Refused by Stripe: nothing went back, the amount can be refunded again.
  if (recent[0]) {
    const at = today - 2 * DAY_MS;
    const id = await ask(3, recent[0], recent[0].gross_cents, "Duplicate order placed by mistake", at);
    await markRefundFailed(trx, id, "Stripe: Refund amount is greater than unrefunded amount on charge", iso(at + 2_000));
  }
  // No definite answer from Stripe: held until the settle lists the payment's refunds.
  if (recent[1]) {
    const at = nowMs - 3 * 60_000;
    const id = await ask(4, recent[1], Math.min(1_500, recent[1].gross_cents), "Wrong size sent: partial refund agreed with the buyer", at);
    await markRefundUnknown(trx, id, "An unknown error occurred while processing your request. Please try again later.", iso(at + 20_000));
  }
  // Taken by Stripe and still on its way at the card network: pending until Stripe lists it as done.
  if (recent[2]) {
    const at = nowMs - 60 * 60_000;
    const id = await ask(5, recent[2], recent[2].gross_cents, "Returned unopened within 14 days", at);
    await notePendingAtStripe(trx, id, "re_3DemoPendingRefund05", iso(at + 3_000));
  }
  return made;
}
