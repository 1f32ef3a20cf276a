import type { VendorTrustedResponse } from "../../../contract/vendors.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { setVendorTrusted } from "../../domain/ledger/product-review.ts";
import { notFound } from "../../platform/http/http-error.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";

/**
 * An artist's 'trusted' flag (docs/product.md §20.4): its new listings skip review. A change writes
 * the artist's history row (the ledger) and one audit row with the reason, in one transaction; a
 * request that changes nothing writes neither.
 */
export class VendorTrustService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  async setTrusted(actor: Actor, vendorId: string, trusted: boolean, reason: string | undefined): Promise<VendorTrustedResponse> {
    const { clock } = this.deps;
    const note = reason?.trim() || null;
    const outcome = await this.deps.database.db.transaction().execute(async (trx) => {
      const result = await setVendorTrusted(trx, vendorId, trusted, { reason: note, actor: { id: actor.user.id, email: actor.user.email } }, clock);
      if (result?.changed) {
        await recordAudit(
          trx,
          {
            actor,
            action: trusted ? "vendor.trust" : "vendor.untrust",
            target: { type: "vendor", id: vendorId, label: result.vendor.name },
            before: { trusted: !trusted },
            after: { trusted },
            details: { name: result.vendor.name, ...(note ? { reason: note } : {}) },
          },
          clock,
        );
      }
      return result;
    });
    if (!outcome) throw notFound("Vendor not found");
    return { id: vendorId, trusted: outcome.vendor.trusted === 1 };
  }
}
