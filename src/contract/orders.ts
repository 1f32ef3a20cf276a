import { z } from "zod";
import { MAX_PAGE_LIMIT } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * The Orders screen (docs/product.md "Orders"): every storefront order line across artists, found by
 * the storefront's order id, the buyer's e-mail or the artist, and one line opened with its sibling
 * lines, amounts and refunds. Read-only: every panel role may read it.
 */

/** The name the CSV export of the list is registered under (POST /api/admin/exports {kind}). */
export const ORDERS_EXPORT_KIND = "orders";

/** `paid`: the buyer paid (part may have been refunded since); `refunded`: all of it went back; `cancelled`: the storefront cancelled it. */
export const ORDER_STATUSES = ["paid", "refunded", "cancelled"] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** The list's status filter: a status, or `partially_refunded` (paid, with part refunded) or `disputed` (a Stripe dispute of it is open). */
export const ORDER_STATUS_FILTERS = ["paid", "partially_refunded", "refunded", "cancelled", "disputed"] as const;
export const orderStatusFilterSchema = z.enum(ORDER_STATUS_FILTERS);
export type OrderStatusFilter = z.infer<typeof orderStatusFilterSchema>;

/**
 * Orders of the list: `newest` (the default: placed, newest first); `created` and `amount`
 * ascending; with a leading '-' descending (`-created` is `newest`).
 */
export const ORDER_SORTS = ["newest", "created", "-created", "amount", "-amount"] as const;
export const orderSortSchema = z.enum(ORDER_SORTS);
export type OrderSort = z.infer<typeof orderSortSchema>;

/**
 * Sorting by amount within a date range or a search reads the orders it narrows to and sorts them:
 * up to this many (more is a 400 naming `sort`: narrow the dates). Without a date range or search,
 * the amount indexes serve every page at any depth.
 */
export const AMOUNT_SORT_CAP = 5_000;

/** A time bound: an ISO-8601 time, or a UTC day (YYYY-MM-DD: `from` its start, `to` its end). */
const timeBound = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/, "must be a date (YYYY-MM-DD) or an ISO-8601 time")
  // Date.parse rolls 2026-02-30 over to March: the day must read back as written.
  .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(Date.parse(`${v.slice(0, 10)}T00:00:00Z`)).toISOString().slice(0, 10) === v.slice(0, 10), "must be a real date");

const filterFields = z.strictObject({
  /**
   * The buyer's e-mail (anything with an '@': exactly, in any case) or the storefront's order id
   * (exactly). Each is found through its own index.
   */
  search: z.string().trim().max(320, "must be at most 320 characters").optional(),
  /** The artist (vendor id). */
  vendorId: z.string().trim().min(1).max(100).optional(),
  status: orderStatusFilterSchema.optional(),
  /** Placed at or after (a bare day: its start). */
  from: timeBound.optional(),
  /** Placed before (a bare day: the end of that day). */
  to: timeBound.optional(),
});

const fromBeforeTo = (q: { from?: string | undefined; to?: string | undefined }) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to);
const fromBeforeToError = { path: ["to"], message: "must not be before from" };

/** The list's filters: also the CSV export's filters (the list's query without its paging and sort). */
export const ordersFiltersSchema = filterFields.refine(fromBeforeTo, fromBeforeToError);
export type OrdersFilters = z.infer<typeof ordersFiltersSchema>;

/** GET /api/admin/orders?search&vendorId&status&from&to&sort&limit&cursor */
export const ordersQuerySchema = filterFields
  .extend({
    sort: orderSortSchema.default("newest"),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
    cursor: z.string().min(1).max(300).optional(),
  })
  .refine(fromBeforeTo, fromBeforeToError);
export type OrdersQuery = z.infer<typeof ordersQuerySchema>;

export const orderListItemSchema = z.object({
  /** The panel's id of the order line. */
  id: z.string(),
  /** The storefront's order and line; null for orders recorded before the storefront sent its ids. */
  externalOrderId: z.string().nullable(),
  externalLineId: z.string().nullable(),
  createdAt: z.string(),
  status: orderStatusSchema,
  customerEmail: z.string().nullable(),
  vendorId: z.string(),
  vendorName: z.string(),
  productName: z.string(),
  quantity: z.number(),
  /** US dollars: what the line is paid for now (after any part refunds; a refunded or cancelled line keeps what it was). */
  amount: z.number(),
  /** US dollars: the platform's fee on `amount`. */
  fee: z.number(),
  /** US dollars refunded in parts (order_refunds); a `refunded` line's whole amount went back too. */
  refundedInParts: z.number(),
});
export type OrderListItem = z.infer<typeof orderListItemSchema>;

export const ordersResponseSchema = z.object({
  orders: z.array(orderListItemSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type OrdersResponse = z.infer<typeof ordersResponseSchema>;

export const orderRefundSchema = z.object({
  /** The storefront's (Stripe's) refund id; null for a whole refund recorded without one. */
  refundId: z.string().nullable(),
  /** US dollars. */
  amount: z.number(),
  refundedAt: z.string(),
  reason: z.string().nullable(),
  /** Who made it from the panel (their e-mail); null for the storefront's own refunds. */
  by: z.string().nullable().default(null),
  /** Made after a payout had carried the line: the artist's share comes off their next payout. */
  nettedFromNextPayout: z.boolean().default(false),
});
export type OrderRefund = z.infer<typeof orderRefundSchema>;

/**
 * A refund asked from the panel: `pending` (asked, Stripe's answer not recorded yet), `succeeded`,
 * `failed` (Stripe refused it, or has none: nothing went back), `unknown` (no definite answer: Stripe
 * may have made it; settled by listing the payment's refunds at Stripe, never by refunding again).
 */
export const REFUND_STATUSES = ["pending", "succeeded", "failed", "unknown"] as const;
export const refundStatusSchema = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof refundStatusSchema>;

export const panelRefundSchema = z.object({
  /** The panel's refund id: the idempotency key and `metadata.refund_id` at Stripe. */
  id: z.string(),
  status: refundStatusSchema,
  /** US dollars asked, over every line of the refund. */
  amount: z.number(),
  reason: z.string(),
  stripeRefundId: z.string().nullable(),
  /** Stripe's refusal, or why the outcome is unknown. */
  failureReason: z.string().nullable(),
  /** When Stripe was last asked about it (the scheduled settle or 'Check with Stripe'); null before. */
  checkedAt: z.string().nullable().default(null),
  createdByEmail: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lines: z.array(z.object({ orderId: z.string(), amount: z.number() })),
});
export type PanelRefund = z.infer<typeof panelRefundSchema>;

/** One step of the line's history, oldest first. */
export const orderEventSchema = z.object({
  /**
   * `refund_requested`: a refund from the panel not settled yet (pending or unknown); `refund_failed`: one that sent nothing back;
   * `dispute_opened` / `dispute_won` / `dispute_lost`: a Stripe dispute of the charge (amount: this line's part).
   */
  kind: z.enum(["placed", "refunded", "refund_requested", "refund_failed", "dispute_opened", "dispute_won", "dispute_lost", "cancelled"]),
  at: z.string(),
  /** US dollars the step moved (the charge, a refund, what a refund asks of this line); null for a cancellation. */
  amount: z.number().nullable(),
  /** Stripe's (or the storefront's) refund id. */
  refundId: z.string().nullable(),
  reason: z.string().nullable(),
  /** Who asked for a refund from the panel (their e-mail); null for the storefront's steps. */
  by: z.string().nullable().default(null),
  /** A refund made after a payout had carried the line: the artist's share is taken off their next payout. */
  nettedFromNextPayout: z.boolean().default(false),
  /** Why a refund failed or is unknown. */
  note: z.string().nullable().default(null),
  /** The panel's refund behind a `refund_requested` or `refund_failed` step (an entry of `panelRefunds`); null for the others. */
  panelRefundId: z.string().nullable().default(null),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

/** GET /api/admin/orders/{id} */
export const orderDetailSchema = z.object({
  order: orderListItemSchema,
  vendor: z.object({ id: z.string(), name: z.string(), slug: z.string(), isActive: z.boolean() }),
  amounts: z.object({
    /** US dollars the buyer was charged for the line (what is paid now plus every refund). */
    charged: z.number(),
    /** US dollars given back (part refunds, and the rest when the line is refunded whole). */
    refunded: z.number(),
    /** The platform's fee on what stays paid; 0 once the line is refunded or cancelled. */
    platformFee: z.number(),
    /** What the artist earns from the line: what stays paid less the fee; 0 once refunded or cancelled. */
    artistNet: z.number(),
    /** The fee rate recorded on the order, in basis points (150 = 1.5 %). */
    feeRateBasisPoints: z.number(),
  }),
  refunds: z.array(orderRefundSchema),
  /** Placed, each refund, a whole refund or the cancellation, oldest first. */
  timeline: z.array(orderEventSchema),
  /** Every line of the same storefront order (this one included), any artist, in line order; just this line when it has no storefront order id. */
  siblings: z.array(orderListItemSchema),
  /** The Stripe payment the buyer paid with; null when the storefront did not name it (no refund from the panel then). */
  paymentIntentId: z.string().nullable(),
  /** US dollars each line of the storefront order can still be refunded (paid, less refunds in progress). */
  refundable: z.array(z.object({ orderId: z.string(), amount: z.number() })),
  /** Refunds asked from the panel for this storefront order (any line), newest first. */
  panelRefunds: z.array(panelRefundSchema),
  /** Stripe disputes of the order's charge, with this line's part of each, newest first. */
  disputes: z
    .array(
      z.object({
        id: z.string(),
        /** Stripe's status (needs_response, under_review, won, lost, …). */
        status: z.string(),
        outcome: z.enum(["open", "won", "lost"]),
        reason: z.string(),
        /** US dollars disputed, over the whole charge. */
        amount: z.number(),
        /** US dollars of it this line carries, and the artist's share held out of payouts while open. */
        lineAmount: z.number(),
        heldForArtist: z.number(),
        /** The artist's part of Stripe's fee once lost (when the 'Dispute fee paid by' setting said artist). */
        feeChargedToArtist: z.number(),
        evidenceDueBy: z.string().nullable(),
        openedAt: z.string(),
        closedAt: z.string().nullable(),
        /** The dispute in Stripe's dashboard. */
        dashboardUrl: z.string(),
      }),
    )
    .default([]),
  /** The payout that carried the artist's share of this line (their first payout after the sale), if any yet. */
  carriedBy: z.object({ payoutId: z.string(), status: z.string(), transferId: z.string().nullable(), paidAt: z.string().nullable() }).nullable(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

export const listOrdersEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/orders",
  area: "orders",
  access: "staff",
  summary: "One page of the marketplace's order lines: searched by order id or buyer e-mail, filtered by artist, status and dates, sorted",
  description:
    "Keyset pagination in the order of `sort` (every page costs the same at any depth). `search` with an '@' is the buyer's e-mail (exact, any case), otherwise the storefront's order id (exact). `from` is inclusive, `to` exclusive (a bare day means the whole day). Sorting by amount within a date range or a search covers up to 5,000 orders (400 naming `sort` beyond). The same filters export as CSV (POST /api/admin/exports with kind \"orders\").",
  query: ordersQuerySchema,
  success: { status: 200, description: "The page and the next cursor", schema: ordersResponseSchema },
  errors: [400],
});

export const getOrderEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/orders/{id}",
  area: "orders",
  access: "staff",
  summary: "An order line with the other lines of its storefront order, its amounts, refunds and timeline",
  params: z.object({ id: z.string() }),
  success: { status: 200, description: "The order line", schema: orderDetailSchema },
  errors: [404],
});

export const REFUND_REASON_MAX = 500;

/** POST /api/admin/orders/{id}/refunds: `lines` of the storefront order (each its whole refundable amount unless `amountCents` says less); none given: every line, whole. */
export const createRefundRequestSchema = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        orderId: z.string().trim().min(1, "is required").max(100),
        /** Cents to refund of the line; absent: all it has left. */
        amountCents: z.number().int("must be a whole number of cents").positive("must be positive").max(100_000_000).optional(),
      }),
    )
    .min(1, "must name at least one line")
    .max(100, "must name at most 100 lines")
    .refine((lines) => new Set(lines.map((l) => l.orderId)).size === lines.length, "names a line twice")
    .optional(),
  reason: z.string().trim().min(1, "is required").max(REFUND_REASON_MAX, `must be at most ${REFUND_REASON_MAX} characters`),
});
export type CreateRefundRequest = z.infer<typeof createRefundRequestSchema>;

export const createRefundResponseSchema = z.object({
  refund: panelRefundSchema,
  /** What happened, in a sentence the operator is shown. */
  message: z.string(),
});
export type CreateRefundResponse = z.infer<typeof createRefundResponseSchema>;

export const createRefundEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/orders/{id}/refunds",
  area: "orders",
  access: { roles: ["admin", "finance"] },
  stepUp: true,
  summary: "Refund lines of a storefront order (or all of it) through Stripe, never twice",
  description:
    "`{id}` is any line of the storefront order. One Stripe refund on the order's payment intent, its idempotency key the refund's id. Each line's amount is reserved first, so refunds asked at once never exceed what was paid (409 naming the line). The answer says whether Stripe made it (succeeded), refused it (failed), is finishing it (pending) or gave no definite answer (unknown: settled by listing the payment intent's refunds, never by refunding again).",
  params: z.object({ id: z.string() }),
  body: createRefundRequestSchema,
  bodyExample: { lines: [{ orderId: "0193a0c4-5b6e-7f00-8000-000000000002" }], reason: "Arrived broken: the buyer sent a photo" },
  success: { status: 201, description: "The refund and its outcome", schema: createRefundResponseSchema },
  errors: [400, 404, 409, 422],
  invalidates: ["orders", "financials", "vendors", "dashboard"],
});

/** What 'Check with Stripe' found: Stripe made it (succeeded), failed it or has none past the window (failed), or cannot say yet (unsettled). */
export const REFUND_CHECK_OUTCOMES = ["succeeded", "failed", "unsettled"] as const;

export const checkRefundResponseSchema = z.object({
  refund: panelRefundSchema,
  outcome: z.enum(REFUND_CHECK_OUTCOMES),
  /** What Stripe said, in a sentence the operator is shown. */
  message: z.string(),
});
export type CheckRefundResponse = z.infer<typeof checkRefundResponseSchema>;

export const checkRefundEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/orders/refunds/{id}/check",
  area: "orders",
  access: { roles: ["admin", "finance"] },
  summary: "Ask Stripe what became of a refund whose outcome is not recorded (the payment's refunds listed; never a second refund)",
  description:
    "`{id}` is the panel's refund id (`panelRefunds[].id` of an order). Lists the payment intent's refunds at Stripe and looks for the one carrying this refund's id: succeeded (the ledger takes the money off), failed (Stripe's reason; the amount held is freed), or still being finished at Stripe. None, and the refund's last move is older than the safe window (PAYOUT_UNKNOWN_WINDOW_SECONDS): failed, nothing went back. None yet: unchanged. Never asks Stripe to refund. One audit row whatever the answer. 409 when the refund's outcome is already recorded (succeeded or failed); 502 when Stripe cannot answer (nothing changes).",
  params: z.object({ id: z.string() }),
  success: { status: 200, description: "The refund after the check, and what Stripe said", schema: checkRefundResponseSchema },
  errors: [404, 409, 422, 502],
  invalidates: ["orders", "financials", "vendors", "dashboard"],
});
