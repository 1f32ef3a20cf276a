import type { StaffRole } from "@contract/access";

/** The left navigation of docs/product.md §2.2, in its order. Also the list the e2e tests click through. */
export interface NavItem {
  label: string;
  path: string;
  /** Shown to admins only (the other roles may still open the URL and read). */
  adminOnly?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Dashboard", path: "/" },
  { label: "Vendors", path: "/vendors" },
  { label: "Products", path: "/products" },
  { label: "Orders", path: "/orders" },
  { label: "Financials", path: "/financials" },
  { label: "Analytics", path: "/analytics" },
  { label: "Invite Codes", path: "/invite-codes" },
  { label: "Communications", path: "/communications" },
  { label: "Admin Users", path: "/admin-users" },
  { label: "Integrations", path: "/integrations", adminOnly: true },
  { label: "Error Logs", path: "/errors" },
  { label: "Settings", path: "/settings" },
  { label: "System Debug", path: "/system-debug" },
];

/** The items a user sees: every one for an admin, those not admin-only for the other roles. */
export function navItemsFor(role: StaffRole | null): readonly NavItem[] {
  return role === "admin" ? NAV_ITEMS : NAV_ITEMS.filter((item) => !item.adminOnly);
}
