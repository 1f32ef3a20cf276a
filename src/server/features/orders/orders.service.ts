import { AMOUNT_SORT_CAP, type OrderDetail, type OrderEvent, type OrderListItem, type OrderSort, type OrdersFilters, type OrdersQuery, type OrdersResponse } from "../../../contract/orders.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { invalidField, notFound } from "../../platform/http/http-error.ts";
import { encodeKeyset, keysetPage, readKeyset } from "../../platform/http/keyset-cursor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { payoutThatCarried } from "../../domain/ledger/refunds.ts";
import { refundableCents, toPanelRefund } from "./refunds.service.ts";
import { findRefundableLine, type LineDisputeRow, readLineDisputes, readLineRefunds, readRefundableLines, readRefundsOfPayment, type RefundWithLines } from "./refunds.queries.ts";
import {
  findOrderRow,
  type OrderPosition,
  type OrderRow,
  type OrderRowFilters,
  type OrderSortSpec,
  readNarrowedKeys,
  readOrderLines,
  readVendorCard,
  readWalkedPage,
  readRowsByIds,
  walksAnIndex,
} from "./orders.queries.ts";

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const dollars = (cents: number) => cents / 100;

/** A filter's time bound as ISO text: a bare day is its start (`from`) or the next day's start (`to`, exclusive). */
function timeBound(value: string, edge: "from" | "to"): string {
  if (DAY_ONLY.test(value)) {
    const start = Date.parse(`${value}T00:00:00.000Z`);
    return new Date(edge === "from" ? start : start + DAY_MS).toISOString();
  }
  return new Date(value).toISOString();
}

/** The contract's filters as the queries take them: the search read as an e-mail or an order id, time bounds resolved. */
export function rowFilters(filters: OrdersFilters): OrderRowFilters {
  const search = filters.search?.trim() ?? "";
  return {
    // E-mails are stored lower-cased (the storefront's events, docs/integration.md): any case finds them.
    email: search.includes("@") ? search.toLowerCase() : undefined,
    externalOrderId: search !== "" && !search.includes("@") ? search : undefined,
    vendorId: filters.vendorId,
    status: filters.status,
    from: filters.from === undefined ? undefined : timeBound(filters.from, "from"),
    to: filters.to === undefined ? undefined : timeBound(filters.to, "to"),
  };
}

export function sortSpec(sort: OrderSort): OrderSortSpec {
  if (sort === "newest") return { column: "created_at", descending: true };
  const descending = sort.startsWith("-");
  return { column: sort.endsWith("amount") ? "gross_cents" : "created_at", descending };
}

/** Which order a cursor was made for: a cursor of another order is refused, not misread. */
const orderTag = (spec: OrderSortSpec) => `${spec.column === "created_at" ? "date" : "amount"}-${spec.descending ? "desc" : "asc"}`;

function encodePosition(spec: OrderSortSpec, row: OrderRow): string {
  return encodeKeyset([orderTag(spec), spec.column === "created_at" ? row.created_at : row.gross_cents, row.id]);
}

function decodePosition(text: string, spec: OrderSortSpec): OrderPosition {
  const [tag, value, id] = spec.column === "created_at" ? readKeyset(text, ["string", "time", "string"]) : readKeyset(text, ["string", "number", "string"]);
  if (tag !== orderTag(spec)) throw invalidField("cursor", "not a valid cursor for this order (use nextCursor from a previous answer with the same sort)");
  return { value, id };
}

export function toListItem(r: OrderRow): OrderListItem {
  return {
    id: r.id,
    externalOrderId: r.external_order_id,
    externalLineId: r.external_line_id,
    createdAt: r.created_at,
    status: r.status,
    customerEmail: r.customer_email,
    vendorId: r.vendor_id,
    vendorName: r.vendor_name,
    productName: r.product_name,
    quantity: r.quantity,
    amount: dollars(r.gross_cents),
    fee: dollars(r.fee_cents),
    refundedInParts: dollars(r.refunded_cents),
  };
}

interface Keyed {
  key: string | number;
  id: string;
}

/** Compares rows (or a row and a cursor's position) in the sort's order: the key, then the id, as the indexes do. */
function compareIn(spec: OrderSortSpec): (a: Keyed, b: Keyed) => number {
  return (a, b) => {
    const c = a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return spec.descending ? -c : c;
  };
}

/**
 * One page of the list in `sort` after `cursor`: an index walk when one serves the order, else the
 * narrowed orders (up to AMOUNT_SORT_CAP) sorted here, the same keyset cursor either way.
 */
export async function readOrderPage(db: Executor, filters: OrdersFilters, sort: OrderSort, cursor: string | undefined, limit: number): Promise<{ rows: OrderListItem[]; next: string | null }> {
  const spec = sortSpec(sort);
  const after = cursor === undefined ? undefined : decodePosition(cursor, spec);
  const where = rowFilters(filters);
  let rows: OrderRow[];
  if (walksAnIndex(where, spec)) {
    rows = await readWalkedPage(db, where, spec, after, limit);
  } else {
    const narrowed = await readNarrowedKeys(db, where, AMOUNT_SORT_CAP);
    if (narrowed.length > AMOUNT_SORT_CAP)
      throw invalidField("sort", `sorting by amount covers up to ${AMOUNT_SORT_CAP.toLocaleString("en-US")} orders within dates or a search: narrow the dates, or sort by date`);
    const compare = compareIn(spec);
    const keyed = narrowed.map((r) => ({ key: spec.column === "created_at" ? r.created_at : r.gross_cents, id: r.id }));
    const ids = keyed
      .filter((r) => after === undefined || compare(r, { key: after.value, id: after.id }) > 0)
      .sort(compare)
      .slice(0, limit + 1)
      .map((r) => r.id);
    rows = await readRowsByIds(db, ids);
  }
  const { page, nextCursor } = keysetPage(rows, limit, (last) => encodePosition(spec, last));
  return { rows: page.map(toListItem), next: nextCursor };
}

const step = (e: Pick<OrderEvent, "kind" | "at" | "amount"> & Partial<OrderEvent>): OrderEvent => ({
  refundId: null,
  reason: null,
  by: null,
  nettedFromNextPayout: false,
  note: null,
  panelRefundId: null,
  ...e,
});

/**
 * The line's history, oldest first: placed, each refund made (by whom, netted or not), the panel's
 * refunds of the line not settled or failed, then a whole refund or the cancellation.
 */
function timelineOf(order: OrderRow, refunds: OrderDetail["refunds"], panelRefunds: RefundWithLines[], disputes: LineDisputeRow[]): OrderEvent[] {
  const events: OrderEvent[] = [step({ kind: "placed", at: order.created_at, amount: dollars(order.gross_cents + order.refunded_cents) })];
  for (const r of refunds) events.push(step({ kind: "refunded", at: r.refundedAt, amount: r.amount, refundId: r.refundId, reason: r.reason, by: r.by, nettedFromNextPayout: r.nettedFromNextPayout }));
  for (const { refund, lines } of panelRefunds) {
    const mine = lines.find((l) => l.order_id === order.id);
    if (!mine || refund.status === "succeeded") continue;
    const common = { amount: dollars(mine.amount_cents), refundId: refund.stripe_refund_id, reason: refund.reason, by: refund.created_by_email, note: refund.failure_reason, panelRefundId: refund.id };
    if (refund.status === "failed") events.push(step({ kind: "refund_failed", at: refund.updated_at, ...common }));
    else events.push(step({ kind: "refund_requested", at: refund.created_at, ...common }));
  }
  for (const d of disputes) {
    const note = d.evidence_due_by ? `Stripe dispute ${d.id} (${d.reason}); evidence due by ${d.evidence_due_by}` : `Stripe dispute ${d.id} (${d.reason})`;
    events.push(step({ kind: "dispute_opened", at: d.opened_at, amount: dollars(d.line_amount_cents), note }));
    if (d.outcome !== "open" && d.closed_at)
      events.push(step({ kind: d.outcome === "won" ? "dispute_won" : "dispute_lost", at: d.closed_at, amount: dollars(d.line_amount_cents), note: `Stripe dispute ${d.id}` }));
  }
  // A line refunded whole by the storefront's order.refunded keeps its amount and has no refund row:
  // the rest went back when its status changed. A part refund that took all of it left nothing.
  if (order.status === "refunded" && order.gross_cents > 0) events.push(step({ kind: "refunded", at: order.updated_at, amount: dollars(order.gross_cents) }));
  if (order.status === "cancelled") events.push(step({ kind: "cancelled", at: order.updated_at, amount: null }));
  return events.sort((a, b) => (a.kind === "placed" ? -1 : b.kind === "placed" ? 1 : a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The Orders screen (docs/product.md "Orders"): the list and one line's detail, read-only. */
export class OrdersService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "config">) {}

  /** A dispute in Stripe's dashboard (its test mode under a test key). */
  private disputeUrl(id: string): string {
    const test = this.deps.config.stripeSecretKey?.startsWith("sk_test_") ?? false;
    return `https://dashboard.stripe.com/${test ? "test/" : ""}disputes/${encodeURIComponent(id)}`;
  }

  private get db() {
    return this.deps.database.db;
  }

  async list(query: OrdersQuery): Promise<OrdersResponse> {
    const { sort, cursor, limit, ...filters } = query;
    const page = await readOrderPage(this.db, filters, sort, cursor, limit);
    return { orders: page.rows, nextCursor: page.next };
  }

  async detail(id: string): Promise<OrderDetail> {
    const order = await findOrderRow(this.db, id);
    if (!order) throw notFound("Order not found");
    const [vendor, refundRows, lines, payment, carried, disputes] = await Promise.all([
      readVendorCard(this.db, order.vendor_id),
      readLineRefunds(this.db, id),
      order.external_order_id === null ? Promise.resolve([order]) : readOrderLines(this.db, order.external_order_id),
      findRefundableLine(this.db, id),
      payoutThatCarried(this.db, order.vendor_id, order.created_at),
      readLineDisputes(this.db, id),
    ]);
    if (!vendor || !payment) throw notFound("Order not found");
    const paymentIntentId = payment.payment_intent_id;
    const [panelRefunds, refundableLines] = await Promise.all([
      paymentIntentId === null ? Promise.resolve([]) : readRefundsOfPayment(this.db, paymentIntentId),
      order.external_order_id === null ? Promise.resolve([payment]) : readRefundableLines(this.db, order.external_order_id),
    ]);
    const refunds = refundRows.map((r) => ({
      refundId: r.external_refund_id,
      amount: dollars(r.amount_cents),
      refundedAt: r.refunded_at,
      reason: r.reason,
      by: r.created_by_email,
      nettedFromNextPayout: r.netted_payout_id !== null,
    }));
    const paid = order.status === "paid";
    const refundedWhole = order.status === "refunded" ? order.gross_cents : 0;
    return {
      order: toListItem(order),
      vendor: { id: vendor.id, name: vendor.name, slug: vendor.slug, isActive: vendor.is_active === 1 },
      amounts: {
        charged: dollars(order.gross_cents + order.refunded_cents),
        refunded: dollars(order.refunded_cents + refundedWhole),
        platformFee: paid ? dollars(order.fee_cents) : 0,
        artistNet: paid ? dollars(order.gross_cents - order.fee_cents) : 0,
        feeRateBasisPoints: order.fee_rate_basis_points,
      },
      refunds,
      timeline: timelineOf(order, refunds, panelRefunds, disputes),
      siblings: lines.map(toListItem),
      paymentIntentId,
      refundable: refundableLines.filter((l) => l.payment_intent_id === paymentIntentId).map((l) => ({ orderId: l.id, amount: dollars(paymentIntentId === null ? 0 : refundableCents(l)) })),
      panelRefunds: panelRefunds.map(toPanelRefund),
      disputes: disputes.map((d) => ({
        id: d.id,
        status: d.status,
        outcome: d.outcome,
        reason: d.reason,
        amount: dollars(d.amount_cents),
        lineAmount: dollars(d.line_amount_cents),
        heldForArtist: d.outcome === "open" ? dollars(d.held_cents) : 0,
        feeChargedToArtist: dollars(d.fee_cents),
        evidenceDueBy: d.evidence_due_by,
        openedAt: d.opened_at,
        closedAt: d.closed_at,
        dashboardUrl: this.disputeUrl(d.id),
      })),
      carriedBy: carried ? { payoutId: carried.id, status: carried.status, transferId: carried.stripe_transfer_id, paidAt: carried.paid_at } : null,
    };
  }
}
