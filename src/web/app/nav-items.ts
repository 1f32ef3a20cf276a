/** The left navigation of docs/product.md §2.2, in its order. Also the list the e2e tests click through. */
export interface NavItem {
  label: string;
  path: string;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: "Dashboard", path: "/" },
  { label: "Vendors", path: "/vendors" },
  { label: "Products", path: "/products" },
  { label: "Financials", path: "/financials" },
  { label: "Analytics", path: "/analytics" },
  { label: "Invite Codes", path: "/invite-codes" },
  { label: "Communications", path: "/communications" },
  { label: "Admin Users", path: "/admin-users" },
  { label: "Error Logs", path: "/errors" },
  { label: "Settings", path: "/settings" },
  { label: "System Debug", path: "/system-debug" },
];
