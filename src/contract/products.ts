import { z } from "zod";
import { decisionReasonSchema, MAX_PAGE_LIMIT, queryBoolean } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/**
 * The products catalogue across the marketplace (docs/product.md §16): find any product, see who
 * sells it and how it sells, hide what breaks the rules and restore it.
 */

/** The name the CSV export of the list is registered under (POST /api/admin/exports {kind}). */
export const PRODUCTS_EXPORT_KIND = "products";

/**
 * `active`: listed in its store; `draft`: the artist has not listed it; `hidden`: taken down by an
 * operator; `pending_review`: waiting in the Review queue, not live; `rejected`: refused in review.
 */
export const PRODUCT_STATUSES = ["active", "draft", "hidden", "pending_review", "rejected"] as const;
export const productStatusSchema = z.enum(PRODUCT_STATUSES);
export type ProductStatus = z.infer<typeof productStatusSchema>;

/**
 * Orders of the list: `newest` (the default: created, newest first); `created`, `price`, `sold`,
 * `revenue` ascending; with a leading '-' descending (`-created` is `newest`).
 */
export const PRODUCT_SORTS = ["newest", "created", "-created", "price", "-price", "sold", "-sold", "revenue", "-revenue"] as const;
export const productSortSchema = z.enum(PRODUCT_SORTS);
export type ProductSort = z.infer<typeof productSortSchema>;

export const MAX_PRODUCT_SEARCH_LENGTH = 200;
/** Shorter texts have no trigram, so no index could find them among a million names. */
export const MIN_PRODUCT_SEARCH_LENGTH = 3;
/** Totals are exact up to this many; beyond it the list says "10,000+" (counting more would scan). */
export const PRODUCT_COUNT_CAP = 10_000;
/**
 * A search across the whole catalogue counts its matches through the trigram index up to this
 * many on SQLite ("10,000+" beyond) and PRODUCT_SEARCH_CAP_POSTGRES on PostgreSQL, and sorts by
 * every order. With a status filter and more matches than the cap, the total counts that status
 * among the first cap + 1 matches: a lower bound (`totalCapped`), as counting the rest would read
 * every match. The screen shows the answer's total ("{total}+" when capped), never a constant.
 */
export const PRODUCT_SEARCH_CAP = 10_000;
/**
 * PostgreSQL's cap of a search across vendors: its trigram (GIN) index yields row positions that
 * are rechecked against the table, about 2 µs a row at a million products, so counting to 10,000
 * would cost some 25 ms.
 */
export const PRODUCT_SEARCH_CAP_POSTGRES = 1_000;
/**
 * The list filtered to vendors over the product limit (`overLimit=true`) covers at most this many
 * of them, those with the most listed products: one index walk per vendor and status per page.
 */
export const OVER_LIMIT_FILTER_VENDORS = 50;
/** The most products one bulk moderation changes. */
export const MAX_BULK_PRODUCTS = 500;
export const MAX_MODERATION_REASON_LENGTH = 500;

const filterFields = z.object({
  /** Part of the product's name (any case). */
  search: z
    .string()
    .trim()
    .max(MAX_PRODUCT_SEARCH_LENGTH)
    .refine((v) => v === "" || [...v].length >= MIN_PRODUCT_SEARCH_LENGTH, `must be at least ${MIN_PRODUCT_SEARCH_LENGTH} characters (shorter texts cannot use the name index)`)
    .optional(),
  vendorId: z.string().trim().min(1).max(100).optional(),
  status: productStatusSchema.optional(),
  /** Only the products of vendors over the product limit (the OVER_LIMIT_FILTER_VENDORS with the most listed products). */
  overLimit: queryBoolean.optional(),
});

/** The list's filters: also the CSV export's filters (the list's query without its paging and sort). */
export const productsFiltersSchema = filterFields;
export type ProductsFilters = z.infer<typeof productsFiltersSchema>;

/** GET /api/admin/products?search&vendorId&status&sort&limit&cursor */
export const productsQuerySchema = filterFields.extend({
  sort: productSortSchema.default("newest"),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(50),
  cursor: z.string().min(1).max(300).optional(),
});
export type ProductsQuery = z.infer<typeof productsQuerySchema>;

export const productListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendorId: z.string(),
  vendorName: z.string(),
  /** US dollars. */
  price: z.number(),
  inventory: z.number(),
  /** Units sold in paid orders. */
  sold: z.number(),
  /** US dollars: gross of paid orders. */
  revenue: z.number(),
  status: productStatusSchema,
  createdAt: z.string(),
});
export type ProductListItem = z.infer<typeof productListItemSchema>;

export const productsResponseSchema = z.object({
  products: z.array(productListItemSchema),
  /** Products matching the filters (all pages), exact up to PRODUCT_COUNT_CAP (a search across vendors: PRODUCT_SEARCH_CAP, on PostgreSQL PRODUCT_SEARCH_CAP_POSTGRES). */
  total: z.number(),
  /**
   * True when more match than counted: total is then a lower bound ("{total}+"), the cap, or for a
   * search across vendors with a status filter and more matches than its cap, the matches of that
   * status among the first cap + 1.
   */
  totalCapped: z.boolean(),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ProductsResponse = z.infer<typeof productsResponseSchema>;

export const productModerationEntrySchema = z.object({
  id: z.string(),
  action: z.enum(["hide", "restore", "approve", "reject"]),
  /** A takedown for infringement, counted against the artist. */
  infringement: z.boolean(),
  fromStatus: productStatusSchema,
  toStatus: productStatusSchema,
  reason: z.string().nullable(),
  actorEmail: z.string(),
  createdAt: z.string(),
});
export type ProductModerationEntry = z.infer<typeof productModerationEntrySchema>;

/** GET /api/admin/products/{id} */
export const productDetailSchema = z.object({
  product: productListItemSchema.extend({
    /** The reason the artist is shown while the product is hidden; null otherwise. */
    moderationReason: z.string().nullable(),
    moderatedAt: z.string().nullable(),
    moderatedBy: z.string().nullable(),
  }),
  vendor: z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    isActive: z.boolean(),
    /** The vendor's listed products, and the max_products_per_vendor setting they are held to. */
    listedProducts: z.number(),
    productLimit: z.number(),
  }),
  sales: z.object({
    sold: z.number(),
    /** US dollars. */
    revenue: z.number(),
    /** US dollars per unit sold; null before the first sale. */
    averageUnitPrice: z.number().nullable(),
  }),
  /** Hides and restores, newest first (the most recent 50). */
  history: z.array(productModerationEntrySchema),
});
export type ProductDetail = z.infer<typeof productDetailSchema>;

const reasonField = z.string().trim().max(MAX_MODERATION_REASON_LENGTH, `must be at most ${MAX_MODERATION_REASON_LENGTH} characters`).optional();
const reasonToHide = (body: { status: string; reason?: string | undefined }, ctx: z.RefinementCtx) => {
  if (body.status === "hidden" && !body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "is required to hide a product (the artist is shown it)" });
};

/** PATCH /api/admin/products/{id}/status */
export const productStatusRequestSchema = z.strictObject({ status: z.enum(["hidden", "active"]), reason: reasonField }).superRefine(reasonToHide);
export type ProductStatusRequest = z.input<typeof productStatusRequestSchema>;

/** POST /api/admin/products/bulk-status */
export const bulkProductStatusRequestSchema = z
  .strictObject({
    ids: z.array(z.string().min(1).max(100)).min(1, "must name at least one product").max(MAX_BULK_PRODUCTS, `must name at most ${MAX_BULK_PRODUCTS} products`),
    status: z.enum(["hidden", "active"]),
    reason: reasonField,
  })
  .superRefine(reasonToHide);
export type BulkProductStatusRequest = z.input<typeof bulkProductStatusRequestSchema>;

export const bulkProductStatusResponseSchema = z.object({
  /** Products whose status changed. */
  changed: z.number(),
  /** Products that already had the status asked for. */
  unchanged: z.number(),
});
export type BulkProductStatusResponse = z.infer<typeof bulkProductStatusResponseSchema>;

/** GET /api/admin/products/summary */
export const productsSummarySchema = z.object({
  /** `pendingReview`: waiting in the Review queue; `rejected`: refused in review. */
  counts: z.object({ total: z.number(), active: z.number(), draft: z.number(), hidden: z.number(), pendingReview: z.number(), rejected: z.number() }),
  /** Products created in the last 7 days (today and the six days before, UTC). */
  addedThisWeek: z.number(),
  overLimit: z.object({
    /** The max_products_per_vendor setting. */
    limit: z.number(),
    /** Vendors with more listed products than the limit. */
    vendors: z.number(),
    /** Those vendors, most listed products first (at most 20). */
    top: z.array(z.object({ id: z.string(), name: z.string(), listedProducts: z.number() })),
  }),
});
export type ProductsSummary = z.infer<typeof productsSummarySchema>;

const productIdParams = z.object({ id: z.string() });

export const listProductsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/products",
  area: "products",
  access: "staff",
  summary: "One page of the marketplace's products: searched by name, filtered by vendor and status, sorted",
  description:
    'Keyset pagination in the order of `sort` (every page costs the same at any depth). `total` is exact up to 10,000 (`totalCapped` beyond); a search across every vendor counts up to 1,000, and when it matches more it is listed newest first only (400 naming `sort` otherwise). The same filters export as CSV (POST /api/admin/exports with kind "products").',
  query: productsQuerySchema,
  success: { status: 200, description: "The page, the matching total and the next cursor", schema: productsResponseSchema },
  errors: [400],
});

export const productsSummaryEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/products/summary",
  area: "products",
  access: "staff",
  summary: "Counts by status, products added this week, vendors over the product limit",
  success: { status: 200, description: "The catalogue's summary", schema: productsSummarySchema },
});

export const getProductEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/products/{id}",
  area: "products",
  access: "staff",
  summary: "A product with its vendor, sales figures and moderation history",
  params: productIdParams,
  success: { status: 200, description: "The product", schema: productDetailSchema },
  errors: [404],
});

export const setProductStatusEndpoint = defineEndpoint({
  method: "patch",
  path: "/api/admin/products/{id}/status",
  area: "products",
  access: { roles: ["admin", "support"] },
  summary: "Hide a listed product (with the reason the artist is shown) or restore a hidden one",
  params: productIdParams,
  body: productStatusRequestSchema,
  bodyExample: { status: "hidden", reason: "Uses a trademarked logo without permission" },
  success: { status: 200, description: "The product as the list shows it", schema: productListItemSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["products", "vendors", "dashboard", "analytics"],
});

export const bulkProductStatusEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/products/bulk-status",
  area: "products",
  access: { roles: ["admin", "support"] },
  summary: `Hide or restore up to ${MAX_BULK_PRODUCTS} products at once, all or nothing`,
  description: "Any unknown id (404) or product the change does not apply to (409: a draft) changes nothing. Products already in the status asked for are left as they are.",
  body: bulkProductStatusRequestSchema,
  bodyExample: { ids: ["0193a0c4-8a5e-7c1e-9a51-2f4b6c8d9e01"], status: "hidden", reason: "Counterfeit goods" },
  success: { status: 200, description: "How many changed", schema: bulkProductStatusResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["products", "vendors", "dashboard", "analytics"],
});

// --- Listing review (docs/product.md §20.4) -------------------------------------------------------

export const MAX_REVIEW_PAGE = 100;

/** One listing waiting in the Review queue, with its artist's record of takedowns. */
export const reviewItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendorId: z.string(),
  vendorName: z.string(),
  /** Listings of this artist taken down for infringement: a repeat-infringer signal. */
  vendorTakedowns: z.number(),
  /** US dollars. */
  price: z.number(),
  inventory: z.number(),
  /** When the listing arrived (it waits since then). */
  createdAt: z.string(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** GET /api/admin/products/review?limit&cursor: oldest first. */
export const reviewQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_REVIEW_PAGE).default(20),
  cursor: z.string().min(1).max(300).optional(),
});
export type ReviewQuery = z.infer<typeof reviewQuerySchema>;

export const reviewResponseSchema = z.object({
  products: z.array(reviewItemSchema),
  /** Listings waiting (all pages: a counter). */
  total: z.number(),
  nextCursor: z.string().nullable(),
});
export type ReviewResponse = z.infer<typeof reviewResponseSchema>;

export const REVIEW_DECISIONS = ["approve", "reject"] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * POST /api/admin/products/{id}/review: a reject names the reason the artist is shown; `infringement`
 * (with a reject only) records a takedown against the artist.
 */
export const reviewDecisionRequestSchema = z
  .strictObject({
    decision: z.enum(REVIEW_DECISIONS, { error: `must be one of ${REVIEW_DECISIONS.join(", ")}` }),
    reason: decisionReasonSchema.optional(),
    infringement: z.boolean().optional(),
  })
  .superRefine((body, ctx) => {
    if (body.decision === "reject" && !body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "is required to reject a listing (the artist is shown it)" });
    if (body.decision === "approve" && body.infringement) ctx.addIssue({ code: "custom", path: ["infringement"], message: "applies to a reject only" });
  });
export type ReviewDecisionRequest = z.input<typeof reviewDecisionRequestSchema>;

/** POST /api/admin/products/review/bulk-approve */
export const bulkApproveReviewRequestSchema = z.strictObject({
  ids: z
    .array(z.string().min(1).max(100))
    .min(1, "must name at least one listing")
    .max(MAX_BULK_PRODUCTS, `must name at most ${MAX_BULK_PRODUCTS} listings`)
    .refine((ids) => new Set(ids).size === ids.length, "must not name a listing twice"),
  reason: decisionReasonSchema.optional(),
});
export type BulkApproveReviewRequest = z.input<typeof bulkApproveReviewRequestSchema>;

export const bulkApproveReviewResponseSchema = z.object({ approved: z.number() });
export type BulkApproveReviewResponse = z.infer<typeof bulkApproveReviewResponseSchema>;

export const listReviewEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/products/review",
  area: "products",
  access: "staff",
  summary: "The listings waiting for review, oldest first",
  description: "Keyset pages of the (status, created at) index, every page the same cost. `total` is the number waiting (a counter).",
  query: reviewQuerySchema,
  success: { status: 200, description: "The page, the number waiting and the next cursor", schema: reviewResponseSchema },
  errors: [400],
});

export const decideReviewEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/products/{id}/review",
  area: "products",
  access: { roles: ["admin", "support"] },
  summary: "Approve a listing waiting for review, or reject it with the reason the artist is shown",
  description:
    "Applies to a listing waiting for review (409 otherwise). Approving shows it as its artist has it on the storefront (listed or draft); rejecting keeps it off the storefront for good, and with `infringement` counts a takedown against the artist. One audit row, one `product.status_changed` with the reason and one e-mail to the artist, in one transaction.",
  params: productIdParams,
  body: reviewDecisionRequestSchema,
  bodyExample: { decision: "reject", reason: "Infringement: the work is not the artist's own", infringement: true },
  success: { status: 200, description: "The product as the list shows it", schema: productListItemSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["products", "vendors", "dashboard", "analytics"],
});

export const bulkApproveReviewEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/products/review/bulk-approve",
  area: "products",
  access: { roles: ["admin", "support"] },
  summary: `Approve up to ${MAX_BULK_PRODUCTS} listings waiting for review, all or nothing`,
  description: "An unknown id (404) or a listing not waiting for review (409, naming it) approves none. One audit row names them all; each listing gets its event and each artist one e-mail.",
  body: bulkApproveReviewRequestSchema,
  bodyExample: { ids: ["0193a0c4-8a5e-7c1e-9a51-2f4b6c8d9e01"] },
  success: { status: 200, description: "How many were approved", schema: bulkApproveReviewResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["products", "vendors", "dashboard", "analytics"],
});
