import type { StatementEntry, StatementKind, StatementResponse } from "../../../contract/financials.ts";
import { feeCents } from "../../domain/ledger/orders.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { notFound } from "../../platform/http/http-error.ts";
import { encodeKeyset, readKeyset } from "../../platform/http/keyset-cursor.ts";
import { readArtistDisputeLines, readArtistOrders, readArtistPayouts, readArtistRefunds, readArtistSubscriptions, type StatementOrderRow } from "./statement.queries.ts";

/**
 * An artist's statement (docs/product.md §15.8): every movement of what the panel owes them, in
 * date order, with the running balance. The balance is earned − paid out − in flight − held −
 * charged (ledger/payouts.ts), and each entry is one move of one of those:
 * - a sale adds what the artist earned from it when placed (the charge less the fee at its rate);
 * - a refund (the panel's, the storefront's, a lost dispute's) takes off the amount less the fee
 *   refunded with it (each line's refunds replayed in order, as the ledger computed them);
 * - a line refunded or cancelled whole takes off what it still earned;
 * - a dispute holds the artist's share while open and releases it when closed; a lost dispute's
 *   fee charged to the artist takes it off;
 * - a payout takes its amount off when planned (a failed or canceled one gives it back; a reversal
 *   at Stripe gives the reversed amount back);
 * - a subscription fee is shown for the record: the artist pays it by card, not from the balance.
 * So the entries add up to the balance Financials shows, for every artist.
 */

interface Move {
  at: string;
  kind: StatementKind;
  /** Tie-break within one instant: the entry's own id. */
  key: string;
  description: string;
  reference: string | null;
  orderId: string | null;
  cents: number;
}

const usd = (cents: number) => `$${(Math.abs(cents) / 100).toFixed(2)}`;
const lineName = (o: StatementOrderRow) => (o.external_order_id ? `${o.external_order_id}${o.external_line_id ? ` / ${o.external_line_id}` : ""}` : o.id);

/** A line's moves: the sale, its refunds replayed oldest first (the fee on what remained after each), a whole refund or cancellation. */
function orderMoves(o: StatementOrderRow, refunds: Array<{ id: string; external_refund_id: string; amount_cents: number; refunded_at: string; netted_payout_id: string | null }>): Move[] {
  const refunded = refunds.reduce((s, r) => s + r.amount_cents, 0);
  let gross = o.gross_cents + refunded;
  let fee = feeCents(gross, o.fee_rate_basis_points);
  const moves: Move[] = [
    {
      at: o.created_at,
      kind: "sale",
      key: `s${o.id}`,
      description: `Sale ${lineName(o)}: ${o.product_name} × ${o.quantity}, ${usd(gross)} less the ${usd(fee)} fee`,
      reference: o.external_order_id,
      orderId: o.id,
      cents: gross - fee,
    },
  ];
  for (const r of [...refunds].sort((a, b) => (a.refunded_at < b.refunded_at ? -1 : a.refunded_at > b.refunded_at ? 1 : a.id < b.id ? -1 : 1))) {
    const nextGross = gross - r.amount_cents;
    const nextFee = feeCents(nextGross, o.fee_rate_basis_points);
    const lost = r.amount_cents - (fee - nextFee);
    const what = r.external_refund_id.startsWith("dp_") ? "Dispute lost" : "Refund";
    moves.push({
      at: r.refunded_at,
      kind: "refund",
      key: `r${r.id}`,
      description: `${what} ${lineName(o)}: ${usd(r.amount_cents)} back to the buyer, ${usd(fee - nextFee)} of the fee with it${r.netted_payout_id ? " (after a payout: netted from the next)" : ""}`,
      reference: r.external_refund_id,
      orderId: o.id,
      cents: -lost,
    });
    gross = nextGross;
    fee = nextFee;
  }
  if (o.status !== "paid" && gross - fee !== 0) {
    const whole = o.status === "refunded";
    moves.push({
      at: o.updated_at,
      kind: whole ? "refund_whole" : "cancelled",
      key: `w${o.id}`,
      description: `${whole ? "Refunded whole" : "Cancelled"} ${lineName(o)}: ${usd(gross)} less the ${usd(fee)} fee`,
      reference: o.external_order_id,
      orderId: o.id,
      cents: -(gross - fee),
    });
  }
  return moves;
}

/** Every move of the artist's balance, oldest first; throws 404 for an unknown artist. */
export async function artistMoves(db: Executor, vendorId: string): Promise<{ moves: Move[]; balanceCents: number }> {
  const account = await db.selectFrom("payout_accounts").select("balance_cents").where("vendor_id", "=", vendorId).executeTakeFirst();
  if (!account) throw notFound("Vendor not found");
  const [orders, refunds, payouts, disputes, subscriptions] = await Promise.all([
    readArtistOrders(db, vendorId),
    readArtistRefunds(db, vendorId),
    readArtistPayouts(db, vendorId),
    readArtistDisputeLines(db, vendorId),
    readArtistSubscriptions(db, vendorId),
  ]);
  const byOrder = new Map<string, typeof refunds>();
  for (const r of refunds) byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), r]);
  const moves: Move[] = orders.flatMap((o) => orderMoves(o, byOrder.get(o.id) ?? []));
  for (const p of payouts) {
    const transfer = p.stripe_transfer_id ? ` (${p.stripe_transfer_id})` : "";
    moves.push({ at: p.created_at, kind: "payout", key: `p${p.id}`, description: `Payout ${p.status}${transfer}`, reference: p.stripe_transfer_id ?? p.id, orderId: null, cents: -p.amount_cents });
    if (p.status === "failed" || p.status === "canceled") {
      moves.push({
        at: p.updated_at,
        kind: "payout_returned",
        key: `q${p.id}`,
        description: `Payout ${p.status}: owed again${p.failure_reason ? ` (${p.failure_reason})` : ""}`,
        reference: p.id,
        orderId: null,
        cents: p.amount_cents,
      });
    }
    if (p.reversed_cents > 0) {
      moves.push({
        at: p.updated_at,
        kind: "transfer_reversed",
        key: `v${p.id}`,
        description: `Transfer reversed at Stripe${transfer}: owed again`,
        reference: p.stripe_transfer_id ?? p.id,
        orderId: null,
        cents: p.reversed_cents,
      });
    }
  }
  for (const d of disputes) {
    const on = d.external_order_id ?? d.order_id;
    moves.push({
      at: d.opened_at,
      kind: "dispute_hold",
      key: `h${d.id}${d.order_id}`,
      description: `Dispute ${d.id} on ${on} (${d.reason}): the artist's share held`,
      reference: d.id,
      orderId: d.order_id,
      cents: -d.held_cents,
    });
    if (d.outcome !== "open" && d.closed_at) {
      moves.push({
        at: d.closed_at,
        kind: "dispute_release",
        key: `l${d.id}${d.order_id}`,
        description: `Dispute ${d.id} ${d.outcome}: the hold released`,
        reference: d.id,
        orderId: d.order_id,
        cents: d.held_cents,
      });
      if (d.fee_cents > 0)
        moves.push({
          at: d.closed_at,
          kind: "dispute_fee",
          key: `f${d.id}${d.order_id}`,
          description: `Dispute ${d.id}: the artist's part of Stripe's fee`,
          reference: d.id,
          orderId: d.order_id,
          cents: -d.fee_cents,
        });
    }
  }
  for (const s of subscriptions) {
    moves.push({
      at: s.started_at,
      kind: "subscription",
      key: `b${s.id}`,
      description: `Subscription ${s.plan}: ${usd(s.monthly_fee_cents)} a month, paid by card (not from the balance)`,
      reference: s.id,
      orderId: null,
      cents: 0,
    });
    if (s.cancelled_at) moves.push({ at: s.cancelled_at, kind: "subscription", key: `c${s.id}`, description: `Subscription ${s.plan} cancelled`, reference: s.id, orderId: null, cents: 0 });
  }
  moves.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { moves, balanceCents: Number(account.balance_cents) };
}

/** One page of the statement, newest first, after `cursor` ([at, key] of the last entry shown). */
export async function readStatementPage(db: Executor, vendorId: string, cursor: string | undefined, limit: number): Promise<StatementResponse> {
  // A bad cursor is the request's fault whatever the vendor: refused before anything is read.
  const after = cursor === undefined ? undefined : readKeyset(cursor, ["time", "string"]);
  const { moves, balanceCents } = await artistMoves(db, vendorId);
  let running = 0;
  const entries: StatementEntry[] = moves.map((m) => {
    running += m.cents;
    return { id: m.key, at: m.at, kind: m.kind, description: m.description, reference: m.reference, orderId: m.orderId, amount: m.cents / 100, balance: running / 100 };
  });
  entries.reverse();
  let start = 0;
  if (after !== undefined) {
    const [at, key] = after;
    start = entries.findIndex((e) => e.at < at || (e.at === at && e.id < key));
    if (start < 0) start = entries.length;
  }
  const page = entries.slice(start, start + limit);
  const more = start + limit < entries.length;
  const last = page.at(-1);
  return { entries: page, nextCursor: more && last ? encodeKeyset([last.at, last.id]) : null, balance: balanceCents / 100 };
}
