import type { StaffRole } from "@contract/admin-users";
import type { ErrorLevel } from "@contract/error-logs";
import type { AccountStatusName, PayoutStatusName } from "@contract/financials";
import type { ProductStatus } from "@contract/products";
import type { BadgeVariant } from "@web/components/ui/badge";

/** The words (and badge colours) of the domain's statuses, roles and levels, for every screen that shows them (docs/product.md). */

export const ROLE_LABELS: Record<StaffRole, string> = { admin: "Admin", finance: "Finance", support: "Support", viewer: "Viewer" };
export const ROLE_BADGE: Record<StaffRole, BadgeVariant> = { admin: "default", finance: "success", support: "warning", viewer: "info" };

export const LEVEL_LABELS: Record<ErrorLevel, string> = { error: "Error", warning: "Warning", info: "Info" };

/** A vendor's payout account (docs/product.md §15.4). */
export const ACCOUNT_STATUS_LABELS: Record<AccountStatusName, string> = { active: "Active", pending: "Pending", restricted: "Restricted", not_connected: "Not connected" };
export const ACCOUNT_BADGE: Record<AccountStatusName, BadgeVariant> = { active: "success", pending: "warning", restricted: "destructive", not_connected: "secondary" };

/** A payout (docs/product.md §15.4); `unknown`: Stripe has not confirmed the outcome yet. */
export const PAYOUT_STATUS_LABELS: Record<PayoutStatusName, string> = { pending: "Pending", processing: "Processing", unknown: "Unknown", paid: "Paid", failed: "Failed", canceled: "Canceled" };
export const PAYOUT_BADGE: Record<PayoutStatusName, BadgeVariant> = { pending: "secondary", processing: "info", unknown: "warning", paid: "success", failed: "destructive", canceled: "warning" };

/** A product in the catalogue (docs/product.md §16); `hidden`: taken down by an operator. */
export const PRODUCT_STATUS_LABELS: Record<ProductStatus, string> = { active: "Active", draft: "Draft", hidden: "Hidden", pending_review: "In review", rejected: "Rejected" };
export const PRODUCT_BADGE: Record<ProductStatus, BadgeVariant> = { active: "success", draft: "secondary", hidden: "destructive", pending_review: "warning", rejected: "destructive" };
