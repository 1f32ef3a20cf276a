import type { Clock } from "../../platform/clock.ts";
import { type Executor, inTransaction } from "../../platform/db/executor.ts";
import { newId } from "../../platform/db/ids.ts";
import type { Product, ProductRowStatus, Vendor } from "../../platform/db/schema.ts";
import { readSettingValue } from "../settings/settings.queries.ts";
import { SETTINGS_CATALOG } from "../settings/settings-catalog.ts";
import { LedgerError } from "./ledger-error.ts";
import { MAX_MODERATED_PRODUCTS, applyStatus, panelStatusOf } from "./products.ts";
import { artistStatusOf, recordVendorStatusChange, type StatusDecision } from "./vendors.ts";

/**
 * Listing review (docs/product.md §20.4): whether a new listing waits in the Review queue, and the
 * operator's decision on the listings that wait. A listing waiting is `pending_review` (not live);
 * approving shows it as its artist has it on the storefront, rejecting keeps it off for good.
 */

/**
 * Whether a new listing of this artist waits for review, by the setting 'Review new listings'
 * (`listing_review`): never when off or for a trusted artist; always when `all`; with
 * `first_listings`, while the artist has fewer products than `listing_review_first_count` (counted
 * on the artist's index, at most that many entries read).
 */
export async function newListingWaitsForReview(db: Executor, vendorId: string): Promise<boolean> {
  const mode = await readSettingValue(db, "listing_review");
  if (mode !== "all" && mode !== "first_listings") return false;
  const vendor = await db.selectFrom("vendors").select("trusted").where("id", "=", vendorId).executeTakeFirst();
  if (!vendor || vendor.trusted === 1) return false;
  if (mode === "all") return true;
  const first = Number(await readSettingValue(db, "listing_review_first_count")) || Number(SETTINGS_CATALOG.listing_review_first_count.defaultValue);
  const seen = await db
    .selectFrom((eb) => eb.selectFrom("products").select("id").where("vendor_id", "=", vendorId).limit(first).as("firsts"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirst();
  return Number(seen?.n ?? 0) < first;
}

export interface ReviewInput {
  decision: "approve" | "reject";
  /** Required to reject (the artist is shown it); an approve's optional note. */
  reason: string | null;
  /** A reject for infringement: counted against the artist (vendors.takedowns). */
  infringement: boolean;
  actor: { id: string | null; email: string };
}

export interface ReviewResult {
  /** Each listing as it was, in the order of the ids given. */
  before: Product[];
  /** The status each listing has now. */
  after: Map<string, ProductRowStatus>;
}

/**
 * Decides listings waiting for review, all or nothing: every id must exist (not_found names the
 * missing) and be waiting (invalid_state names the others). Each gets its moderation row (`approve`
 * or `reject`, with `infringement`), moves the counters like any status change, and an infringement
 * adds to its artist's takedowns, in one transaction.
 */
export async function reviewProducts(db: Executor, ids: readonly string[], input: ReviewInput, clock: Clock): Promise<ReviewResult> {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || unique.length > MAX_MODERATED_PRODUCTS) throw new LedgerError("invalid_input", `between 1 and ${MAX_MODERATED_PRODUCTS} products at a time`);
  const reason = input.reason?.trim() ? input.reason.trim() : null;
  if (input.decision === "reject" && reason === null) throw new LedgerError("invalid_input", "a reason is required to reject a listing");
  const infringement = input.decision === "reject" && input.infringement;
  return inTransaction(db, async (trx) => {
    const rows = await trx.selectFrom("products").selectAll().where("id", "in", unique).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = unique.filter((id) => !byId.has(id));
    if (missing.length > 0) throw new LedgerError("not_found", `No such product: ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`);
    const notWaiting = rows.filter((r) => r.status !== "pending_review");
    if (notWaiting.length > 0) {
      throw new LedgerError(
        "invalid_state",
        `only listings waiting for review can be decided: ${notWaiting
          .slice(0, 5)
          .map((r) => `${r.name} (${r.id}) is ${r.status === "listed" ? "active" : r.status.replace("_", " ")}`)
          .join(", ")}${notWaiting.length > 5 ? ` and ${notWaiting.length - 5} more` : ""}`,
      );
    }
    const at = clock.now().toISOString();
    const after = new Map<string, ProductRowStatus>();
    const takedowns = new Map<string, number>();
    for (const id of unique) {
      const current = byId.get(id)!;
      // An approved listing goes live as its artist has it on the storefront (a draft stays a draft).
      const to: ProductRowStatus = input.decision === "reject" ? "rejected" : current.storefront_status ? panelStatusOf(current.storefront_status) : "listed";
      await applyStatus(trx, current, to, { reason: input.decision === "reject" ? reason : null, at, by: input.actor.email });
      await trx
        .insertInto("product_moderations")
        .values({
          id: newId(),
          product_id: id,
          action: input.decision,
          from_status: current.status,
          to_status: to,
          infringement: infringement ? 1 : 0,
          reason,
          actor_id: input.actor.id,
          actor_email: input.actor.email,
          created_at: at,
        })
        .execute();
      after.set(id, to);
      if (infringement) takedowns.set(current.vendor_id, (takedowns.get(current.vendor_id) ?? 0) + 1);
    }
    for (const [vendorId, n] of takedowns) {
      await trx
        .updateTable("vendors")
        .set((eb) => ({ takedowns: eb("takedowns", "+", n) }))
        .where("id", "=", vendorId)
        .execute();
    }
    return { before: unique.map((id) => byId.get(id)!), after };
  });
}

/**
 * Marks an artist trusted (its new listings skip review) or no longer trusted, with a row of its
 * status history (`trust` / `untrust`, its status unchanged) when it changed. Null for an unknown
 * id; `changed` false when it already was as asked. Conditional on the value read, so two racing
 * requests change it once.
 */
export async function setVendorTrusted(db: Executor, vendorId: string, trusted: boolean, decision: StatusDecision, clock: Clock): Promise<{ vendor: Vendor; changed: boolean } | null> {
  return inTransaction(db, async (trx) => {
    const current = await trx.selectFrom("vendors").selectAll().where("id", "=", vendorId).executeTakeFirst();
    if (!current) return null;
    const next = trusted ? 1 : 0;
    if (current.trusted === next) return { vendor: current, changed: false };
    const at = clock.now().toISOString();
    const updated = await trx.updateTable("vendors").set({ trusted: next, updated_at: at }).where("id", "=", vendorId).where("trusted", "=", current.trusted).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) return { vendor: { ...current, trusted: next }, changed: false };
    const status = artistStatusOf(current);
    await recordVendorStatusChange(trx, vendorId, { action: trusted ? "trust" : "untrust", from: status, to: status, reason: decision.reason, actor: decision.actor, at });
    return { vendor: { ...current, trusted: next, updated_at: at }, changed: true };
  });
}
