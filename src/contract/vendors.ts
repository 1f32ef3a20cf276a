import { z } from "zod";
import { decisionReasonSchema, pageQuerySchema, queryBoolean } from "./common.ts";
import { defineEndpoint } from "./endpoint.ts";

/** Vendor as the list shows it (docs/product.md §11.3). */
export const vendorListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  email: z.string(),
  slug: z.string(),
  joinedDate: z.string(),
  isActive: z.boolean(),
  isInternal: z.boolean(),
});
export type VendorListItem = z.infer<typeof vendorListItemSchema>;

export const vendorStatusFilterSchema = z.enum(["active", "inactive", "internal"]);
export type VendorStatusFilter = z.infer<typeof vendorStatusFilterSchema>;

/** Longest search text accepted; longer input cannot match a vendor's name, e-mail or slug anyway. */
export const MAX_VENDOR_SEARCH_LENGTH = 200;

/**
 * Orders of the vendor list (docs/product.md §4.1): by `name`, `joined` date, listed `products` and
 * `revenue` (gross of paid orders), ascending; with a leading '-' descending. A plain list
 * (decision 0007): the web reads it at run time.
 */
export const VENDOR_SORTS = ["name", "-name", "joined", "-joined", "products", "-products", "revenue", "-revenue"] as const;
export const vendorSortSchema = z.enum(VENDOR_SORTS);
export type VendorSort = z.infer<typeof vendorSortSchema>;

/** A search is sorted (other than newest joined first) only when it matches at most this many vendors. */
export const VENDOR_SEARCH_SORT_CAP = 1000;
/** The most vendors one bulk status change names. */
export const MAX_BULK_VENDORS = 500;
/** The name the CSV export of the list is registered under (POST /api/admin/exports {kind}). */
export const VENDORS_EXPORT_KIND = "vendors";

const vendorFilterFields = {
  search: z.string().trim().max(MAX_VENDOR_SEARCH_LENGTH).optional(),
  status: vendorStatusFilterSchema.optional(),
};

/** The list's filters: also the CSV export's filters (the list's query without paging and sort). */
export const vendorsFiltersSchema = z.object(vendorFilterFields);
export type VendorsFilters = z.infer<typeof vendorsFiltersSchema>;

/**
 * GET /api/admin/vendors?page&limit&search&status (the spec's call: page numbers, newest joined
 * first), or with `sort` (and then `cursor`, the previous answer's nextCursor): keyset pages in that
 * order, where `page` is not read.
 */
export const adminVendorsQuerySchema = pageQuerySchema.extend({
  ...vendorFilterFields,
  sort: vendorSortSchema.optional(),
  cursor: z.string().min(1).max(600).optional(),
});
export type AdminVendorsQuery = z.infer<typeof adminVendorsQuerySchema>;

export const vendorCountsSchema = z.object({
  total: z.number(),
  active: z.number(),
  inactive: z.number(),
  internal: z.number(),
  /** Applications waiting for a decision (the Applications tab's badge). */
  applications: z.number(),
});
export type VendorCounts = z.infer<typeof vendorCountsSchema>;

/** A row of the admin list: the vendor and the figures it can be sorted by. */
export const adminVendorRowSchema = vendorListItemSchema.extend({
  /** Listed products. */
  products: z.number(),
  /** US dollars: gross of paid orders. */
  revenue: z.number(),
});
export type AdminVendorRow = z.infer<typeof adminVendorRowSchema>;

export const adminVendorsResponseSchema = z.object({
  vendors: z.array(adminVendorRowSchema),
  /** Vendors matching the search and status filter (all pages). */
  total: z.number(),
  /** True when a search matched more vendors than the server counts (total is then that cap). */
  totalCapped: z.boolean(),
  page: z.number(),
  limit: z.number(),
  /** Platform-wide counts, independent of the filter (the summary cards). */
  counts: vendorCountsSchema,
  /** With `sort`: pass as `cursor` for the next page (null on the last). Page-numbered calls answer null. */
  nextCursor: z.string().nullable(),
});
export type AdminVendorsResponse = z.infer<typeof adminVendorsResponseSchema>;

/** GET /api/vendors?include_internal=true (the array call of docs/product.md §10.4; the screens use the paginated one). */
export const vendorsArrayQuerySchema = z.object({
  include_internal: queryBoolean.optional(),
});
/** The array call of docs/product.md §10.4 is bounded: it returns the newest vendors up to this many. */
export const MAX_VENDORS_ARRAY = 1000;

export const vendorStatsSchema = z.object({
  totalProducts: z.number(),
  /** US dollars. */
  revenue: z.number(),
  totalSales: z.number(),
  avgOrderValue: z.number(),
  /** Percent: paid orders / store visits × 100, 0 without visits. */
  conversionRate: z.number(),
  lastSaleDate: z.string().nullable(),
});
export type VendorStats = z.infer<typeof vendorStatsSchema>;

export const vendorCustomizationSchema = z.object({
  theme: z.string(),
  primaryColor: z.string(),
  secondaryColor: z.string(),
  about: z.string(),
  /** Sanitised by the server. */
  customCSS: z.string(),
  /** Sanitised by the server; null when the vendor has none. */
  customHTML: z.string().nullable(),
});
export type VendorCustomization = z.infer<typeof vendorCustomizationSchema>;

/**
 * An artist's status as its history and the storefront name it: `pending` (an application waiting),
 * `changes_requested` (the operator asked the artist for more), `rejected`, or once admitted
 * `active` / `inactive` (disabled or suspended).
 */
export const ARTIST_STATUSES = ["active", "inactive", "pending", "changes_requested", "rejected"] as const;
export const artistStatusSchema = z.enum(ARTIST_STATUSES);
export type ArtistStatus = z.infer<typeof artistStatusSchema>;

/** What an artist sends with its application (artist.created's `application`), as the panel keeps it. */
export const artistApplicationSchema = z.object({
  portfolioUrl: z.string(),
  statement: z.string(),
  /** At most 6, each on the storefront's image host (docs/integration.md). */
  sampleImageUrls: z.array(z.string()),
  referral: z.string().nullable(),
});
export type ArtistApplication = z.infer<typeof artistApplicationSchema>;

/** One decision on an artist's status: who, when and why (newest first on the artist's page). */
export const vendorStatusEntrySchema = z.object({
  id: z.string(),
  /** `trust` / `untrust`: the artist's listings stop / start waiting for review (its status stays). */
  action: z.enum(["disable", "enable", "approve", "reject", "request_changes", "apply", "trust", "untrust"]),
  fromStatus: artistStatusSchema,
  toStatus: artistStatusSchema,
  reason: z.string().nullable(),
  actorEmail: z.string(),
  createdAt: z.string(),
});
export type VendorStatusEntry = z.infer<typeof vendorStatusEntrySchema>;

/** GET /api/admin/vendors/{id} (docs/product.md §11.3). */
export const vendorDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  email: z.string(),
  slug: z.string(),
  status: z.enum(["active", "suspended"]),
  isInternal: z.boolean(),
  joinedDate: z.string(),
  stats: vendorStatsSchema,
  customization: vendorCustomizationSchema,
  /** The artist's status with its admission (ARTIST_STATUSES). */
  artistStatus: artistStatusSchema,
  /** The reason of the latest status decision (what the artist was told); null when none was given. */
  statusReason: z.string().nullable(),
  /** Its status decisions, newest first (the most recent 50). */
  statusHistory: z.array(vendorStatusEntrySchema),
  /** The application the artist sent; null for an artist that sent none. */
  application: artistApplicationSchema.nullable(),
  appliedAt: z.string().nullable(),
  /** Its listings go live without review. */
  trusted: z.boolean(),
  /** Listings taken down for infringement. */
  takedowns: z.number(),
});
export type VendorDetail = z.infer<typeof vendorDetailSchema>;

/** A disable or suspend names its reason (the artist is told it); an enable may carry a note. */
const reasonToDisable = (body: { isActive: boolean; reason?: string | undefined }, ctx: z.RefinementCtx) => {
  if (!body.isActive && !body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "is required to disable or suspend a vendor (the artist is told it)" });
};

/** PATCH /api/vendors/{id}/status */
export const vendorStatusRequestSchema = z.strictObject({ isActive: z.boolean(), reason: decisionReasonSchema.optional() }).superRefine(reasonToDisable);
export type VendorStatusRequest = z.input<typeof vendorStatusRequestSchema>;

/** POST /api/admin/vendors/bulk-status */
export const bulkVendorStatusRequestSchema = z
  .strictObject({
    ids: z
      .array(z.string().min(1).max(100))
      .min(1, "must name at least one vendor")
      .max(MAX_BULK_VENDORS, `must name at most ${MAX_BULK_VENDORS} vendors`)
      .refine((ids) => new Set(ids).size === ids.length, "must not name a vendor twice"),
    isActive: z.boolean(),
    reason: decisionReasonSchema.optional(),
  })
  .superRefine(reasonToDisable);
export type BulkVendorStatusRequest = z.input<typeof bulkVendorStatusRequestSchema>;

export const bulkVendorStatusResponseSchema = z.object({
  /** Vendors whose status changed. */
  changed: z.number(),
  /** Vendors that already had the status asked for. */
  unchanged: z.number(),
});
export type BulkVendorStatusResponse = z.infer<typeof bulkVendorStatusResponseSchema>;

/** DELETE /api/vendors/{id}?action=delete */
export const vendorDeleteQuerySchema = z.object({ action: z.literal("delete") });
export const vendorDeleteRequestSchema = z.strictObject({ deleteFromClerk: z.boolean() });
export type VendorDeleteRequest = z.infer<typeof vendorDeleteRequestSchema>;

export const vendorDeleteResponseSchema = z.object({
  success: z.literal(true),
  deleted: z.object({
    vendorId: z.string(),
    products: z.number(),
    orders: z.number(),
    subscriptions: z.number(),
    storeVisitDays: z.number(),
    ownerAccountDeleted: z.boolean(),
  }),
});
export type VendorDeleteResponse = z.infer<typeof vendorDeleteResponseSchema>;

export const vendorProductSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** US dollars. */
  price: z.number(),
  inventory: z.number(),
  /** 'hidden': taken down by an operator (docs/product.md §16); 'pending_review': waiting in review; 'rejected': refused in review. */
  status: z.enum(["listed", "draft", "hidden", "pending_review", "rejected"]),
  sold: z.number(),
  /** US dollars. */
  revenue: z.number(),
  createdAt: z.string(),
});
export type VendorProduct = z.infer<typeof vendorProductSchema>;

export const vendorProductsResponseSchema = z.object({
  products: z.array(vendorProductSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type VendorProductsResponse = z.infer<typeof vendorProductsResponseSchema>;

export const vendorSaleSchema = z.object({
  id: z.string(),
  date: z.string(),
  productName: z.string(),
  items: z.number(),
  /** US dollars. */
  total: z.number(),
  platformFee: z.number(),
  status: z.enum(["paid", "refunded", "cancelled"]),
});
export type VendorSale = z.infer<typeof vendorSaleSchema>;

export const vendorSalesResponseSchema = z.object({
  sales: z.array(vendorSaleSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
});
export type VendorSalesResponse = z.infer<typeof vendorSalesResponseSchema>;

const vendorIdParams = z.object({ id: z.string() });

export const listAdminVendorsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors",
  area: "vendors",
  cache: { per: "everyone", unlessQuery: ["search"] },
  access: "staff",
  summary: "One page of vendors, searched, filtered by status and sorted, with the platform-wide counts",
  description:
    "Without `sort`: page numbers, newest joined first (docs/product.md §10.3). With `sort` (name, joined, products, revenue; '-' for descending): keyset pages in that order, `cursor` from the previous answer's nextCursor; every page costs the same at any depth. A search with `sort` must match at most 1,000 vendors (400 naming `sort` otherwise). The same filters export as CSV (POST /api/admin/exports with kind \"vendors\").",
  query: adminVendorsQuerySchema,
  success: { status: 200, description: "The page, the matching total and the counts", schema: adminVendorsResponseSchema },
  errors: [400],
});

export const listVendorsArrayEndpoint = defineEndpoint({
  method: "get",
  path: "/api/vendors",
  area: "vendors",
  access: "staff",
  summary: `The newest vendors as one array (at most ${MAX_VENDORS_ARRAY})`,
  query: vendorsArrayQuerySchema,
  success: { status: 200, description: "Vendors, newest first", schema: z.array(vendorListItemSchema) },
  errors: [400],
});

export const getVendorDetailEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors/{id}",
  area: "vendors",
  cache: { per: "everyone" },
  access: "staff",
  summary: "A vendor with its figures and sanitised store customisation",
  params: vendorIdParams,
  success: { status: 200, description: "The vendor", schema: vendorDetailSchema },
  errors: [404],
});

export const listVendorProductsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors/{id}/products",
  area: "vendors",
  cache: { per: "everyone" },
  access: "staff",
  summary: "One page of a vendor's products, newest first",
  params: vendorIdParams,
  query: pageQuerySchema,
  success: { status: 200, description: "The page and the vendor's product count", schema: vendorProductsResponseSchema },
  errors: [400, 404],
});

export const listVendorSalesEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors/{id}/sales",
  area: "vendors",
  cache: { per: "everyone" },
  access: "staff",
  summary: "One page of a vendor's orders, newest first",
  params: vendorIdParams,
  query: pageQuerySchema,
  success: { status: 200, description: "The page and the vendor's order count", schema: vendorSalesResponseSchema },
  errors: [400, 404],
});

export const setVendorStatusEndpoint = defineEndpoint({
  method: "patch",
  path: "/api/vendors/{id}/status",
  area: "vendors",
  access: { roles: ["admin", "support"] },
  summary: "Enable or disable a vendor's store (a disable with the reason the artist is told)",
  description:
    "Disabling (suspending) requires `reason` (400 naming it otherwise): it is kept with the change in the artist's status history, sent in `artist.status_changed` and e-mailed to the artist. Enabling may carry one as a note. An artist whose application is not approved cannot be enabled (409): decide the application.",
  params: vendorIdParams,
  body: vendorStatusRequestSchema,
  bodyExample: { isActive: false, reason: "Repeated complaints about orders not shipped" },
  success: { status: 200, description: "The vendor as the list shows it", schema: vendorListItemSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["vendors", "featured-artist", "dashboard", "analytics"],
});

/** PUT /api/admin/vendors/{id}/trusted: a trusted artist's new listings skip review (docs/product.md §20.4). */
export const vendorTrustedRequestSchema = z.strictObject({ trusted: z.boolean(), reason: decisionReasonSchema.optional() });
export type VendorTrustedRequest = z.input<typeof vendorTrustedRequestSchema>;
export const vendorTrustedResponseSchema = z.object({ id: z.string(), trusted: z.boolean() });
export type VendorTrustedResponse = z.infer<typeof vendorTrustedResponseSchema>;

export const setVendorTrustedEndpoint = defineEndpoint({
  method: "put",
  path: "/api/admin/vendors/{id}/trusted",
  area: "vendors",
  access: { roles: ["admin", "support"] },
  summary: "Mark an artist trusted (its new listings skip review) or no longer trusted, with an optional reason",
  description:
    "Kept in the artist's status history (`trust` / `untrust`, with the reason) and one audit row, in one transaction; an artist already as asked changes nothing and writes no row. Listings already waiting stay in the queue.",
  params: vendorIdParams,
  body: vendorTrustedRequestSchema,
  bodyExample: { trusted: true, reason: "Established gallery artist, reviewed since 2024" },
  success: { status: 200, description: "Whether the artist is trusted now", schema: vendorTrustedResponseSchema },
  errors: [400, 404, 415],
  invalidates: ["vendors"],
});

export const deleteVendorEndpoint = defineEndpoint({
  method: "delete",
  path: "/api/vendors/{id}",
  area: "vendors",
  access: { roles: ["admin"] },
  summary: "Delete a vendor with its products, orders, subscriptions and visits (and its owner's account when asked)",
  params: vendorIdParams,
  query: vendorDeleteQuerySchema,
  queryExample: { action: "delete" },
  body: vendorDeleteRequestSchema,
  bodyExample: { deleteFromClerk: false },
  success: { status: 200, description: "What was deleted", schema: vendorDeleteResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["vendors", "featured-artist", "dashboard", "analytics"],
});

export const bulkVendorStatusEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/vendors/bulk-status",
  area: "vendors",
  access: { roles: ["admin", "support"] },
  summary: `Enable or disable up to ${MAX_BULK_VENDORS} vendors at once, all or nothing`,
  description:
    "An unknown id (404, naming it) or an artist whose application is not approved (409, when enabling) changes nothing. Disabling names the reason each artist is told (400 naming `reason` without one). Vendors already in the status asked for are left as they are; a disabled vendor's feature ends (docs/product.md §18.1); one audit row names them all, in the same transaction.",
  body: bulkVendorStatusRequestSchema,
  bodyExample: { ids: ["0193a0c4-8a5e-7c1e-9a51-2f4b6c8d9e01"], isActive: false, reason: "Store closed for a season" },
  success: { status: 200, description: "How many changed", schema: bulkVendorStatusResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["vendors", "featured-artist", "dashboard", "analytics"],
});

// --- Applications (docs/product.md §20.2) ---------------------------------------------------------

/** The most sample images one application carries. */
export const MAX_APPLICATION_IMAGES = 6;
export const MAX_APPLICATIONS_PAGE = 100;

/** One application waiting in the queue, with everything the artist sent. */
export const applicationItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  email: z.string(),
  slug: z.string(),
  /** The storefront's id of the artist (null for one made in the panel). */
  artistId: z.string().nullable(),
  status: artistStatusSchema,
  /** When the application arrived (or was sent again after changes were asked for). */
  appliedAt: z.string(),
  /** What the artist sent; null when the storefront sent no application with the artist. */
  application: artistApplicationSchema.nullable(),
});
export type ApplicationItem = z.infer<typeof applicationItemSchema>;

/** GET /api/admin/vendors/applications?limit&cursor: oldest first. */
export const applicationsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_APPLICATIONS_PAGE).default(20),
  cursor: z.string().min(1).max(300).optional(),
});
export type ApplicationsQuery = z.infer<typeof applicationsQuerySchema>;

export const applicationsResponseSchema = z.object({
  applications: z.array(applicationItemSchema),
  /** Applications waiting (all pages). */
  total: z.number(),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type ApplicationsResponse = z.infer<typeof applicationsResponseSchema>;

export const APPLICATION_DECISIONS = ["approve", "reject", "request_changes"] as const;
export type ApplicationDecision = (typeof APPLICATION_DECISIONS)[number];

/** POST /api/admin/vendors/{id}/application: a reject names its reason, a request for changes its message. */
export const applicationDecisionRequestSchema = z
  .strictObject({
    decision: z.enum(APPLICATION_DECISIONS, { error: `must be one of ${APPLICATION_DECISIONS.join(", ")}` }),
    reason: decisionReasonSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.decision === "reject" && !body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "is required to reject an application (the artist is told it)" });
    if (body.decision === "request_changes" && !body.reason) ctx.addIssue({ code: "custom", path: ["reason"], message: "is required to ask for changes (the message the artist is sent)" });
  });
export type ApplicationDecisionRequest = z.input<typeof applicationDecisionRequestSchema>;

export const applicationDecisionResponseSchema = vendorListItemSchema.extend({ artistStatus: artistStatusSchema });
export type ApplicationDecisionResponse = z.infer<typeof applicationDecisionResponseSchema>;

/** POST /api/admin/vendors/applications/bulk-approve */
export const bulkApproveApplicationsRequestSchema = z.strictObject({
  ids: z
    .array(z.string().min(1).max(100))
    .min(1, "must name at least one application")
    .max(MAX_BULK_VENDORS, `must name at most ${MAX_BULK_VENDORS} applications`)
    .refine((ids) => new Set(ids).size === ids.length, "must not name an application twice"),
  reason: decisionReasonSchema.optional(),
});
export type BulkApproveApplicationsRequest = z.input<typeof bulkApproveApplicationsRequestSchema>;

export const bulkApproveApplicationsResponseSchema = z.object({ approved: z.number() });

export const listApplicationsEndpoint = defineEndpoint({
  method: "get",
  path: "/api/admin/vendors/applications",
  area: "vendors",
  access: "staff",
  summary: "The artists' applications waiting for a decision, oldest first",
  description: "Keyset pages of the (approval status, applied at) index, every page the same cost. `total` is the number waiting (a counter).",
  query: applicationsQuerySchema,
  success: { status: 200, description: "The page, the number waiting and the next cursor", schema: applicationsResponseSchema },
  errors: [400],
});

export const decideApplicationEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/vendors/{id}/application",
  area: "vendors",
  access: { roles: ["admin", "support"] },
  summary: "Approve an artist's application, reject it with a reason, or ask for changes with a message",
  description:
    "Applies to a pending application (or one waiting for changes). Approving makes the artist active; rejecting and asking for changes keep it inactive. One audit row, one `artist.status_changed` with the reason and one e-mail to the artist, in one transaction. 409 for an artist already decided.",
  params: vendorIdParams,
  body: applicationDecisionRequestSchema,
  bodyExample: { decision: "reject", reason: "The portfolio does not show enough original work yet" },
  success: { status: 200, description: "The artist as the list shows it, with its new status", schema: applicationDecisionResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["vendors", "dashboard", "analytics"],
});

export const bulkApproveApplicationsEndpoint = defineEndpoint({
  method: "post",
  path: "/api/admin/vendors/applications/bulk-approve",
  area: "vendors",
  access: { roles: ["admin", "support"] },
  summary: `Approve up to ${MAX_BULK_VENDORS} applications at once, all or nothing`,
  description: "An unknown id (404) or an artist whose application is not waiting (409) approves none. One audit row names them all; each artist gets its event and its e-mail.",
  body: bulkApproveApplicationsRequestSchema,
  bodyExample: { ids: ["0193a0c4-8a5e-7c1e-9a51-2f4b6c8d9e01"] },
  success: { status: 200, description: "How many were approved", schema: bulkApproveApplicationsResponseSchema },
  errors: [400, 404, 409, 415],
  invalidates: ["vendors", "dashboard", "analytics"],
});
