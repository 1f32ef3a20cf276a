import type { RecentActivity } from "@contract/dashboard";

/** docs/product.md: vendor_joined 'New artist joined:', product_added 'Product added:', anything else 'Sale completed:'. */
export function activityLabel(type: RecentActivity["type"] | string): string {
  if (type === "vendor_joined") return "New artist joined:";
  if (type === "product_added") return "Product added:";
  return "Sale completed:";
}

/** "+12.5%" / "-3%" (the sign always shown, so a change reads as one). */
export function formatTrend(percent: number): string {
  return `${percent > 0 ? "+" : ""}${percent}%`;
}
