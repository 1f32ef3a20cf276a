import type { Kysely } from "kysely";

/**
 * The Orders screen (docs/product.md "Orders"): every page of its list walks one index from the
 * cursor, so no request reads the whole orders table at 5M rows. Already there: `(created_at, id)`
 * (the unfiltered list, newest first), `(vendor_id, created_at, id)` (one artist) and
 * `(external_order_id, external_line_id)` (a storefront order's lines, migration 023). Added:
 * - `(status, created_at, id)`: the list by status, in date order;
 * - `(customer_email, created_at, id)`: a buyer's orders (e-mails are stored lower-cased);
 * - `(gross_cents, id)`, `(status, gross_cents, id)`, `(vendor_id, gross_cents, id)`: by amount,
 *   unfiltered, by status and by artist.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("orders_status_created_idx").on("orders").columns(["status", "created_at", "id"]).execute();
  await db.schema.createIndex("orders_email_created_idx").on("orders").columns(["customer_email", "created_at", "id"]).execute();
  await db.schema.createIndex("orders_amount_idx").on("orders").columns(["gross_cents", "id"]).execute();
  await db.schema.createIndex("orders_status_amount_idx").on("orders").columns(["status", "gross_cents", "id"]).execute();
  await db.schema.createIndex("orders_vendor_amount_idx").on("orders").columns(["vendor_id", "gross_cents", "id"]).execute();
}
