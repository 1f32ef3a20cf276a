import type { Kysely } from "kysely";

/**
 * A store's custom HTML keeps, beside what the artist wrote (`custom_html`), the copy the API shows:
 * `custom_html_shown`, sanitised when the HTML was written, under the allow-list version
 * `custom_html_policy` (domain/customization/sanitize-customization.ts). Sanitising needs DOMPurify on a
 * jsdom window, ~45 MB a process kept for good once a store's detail was read (decision 0027);
 * written once, the detail reads the copy. Rows without a copy, or with one made under another
 * version, are sanitised on the way out as before.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("vendors").addColumn("custom_html_shown", "text").execute();
  await db.schema.alterTable("vendors").addColumn("custom_html_policy", "integer").execute();
}
