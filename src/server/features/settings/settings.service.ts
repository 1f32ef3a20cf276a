import type { SettingHistoryResponse, SettingKeyName, SettingsResponse } from "../../../contract/settings.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { validateSettingChanges } from "./settings-validation.ts";
import { readKeyset } from "../../platform/http/keyset-cursor.ts";
import { readSettingHistory, readSettings, writeSettings } from "../../domain/settings/settings.queries.ts";
import { recountVendorsOverProductLimit } from "../../domain/ledger/product-limit.ts";
import { recordEventOut } from "../../domain/outbox/events-out.ts";
import { PUBLIC_SETTING_KEYS } from "../../../contract/integrations-webhooks.ts";

/** Platform settings (docs/product.md §7 Settings): read, change with validation and history. */
export class SettingsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  read(): Promise<SettingsResponse> {
    return readSettings(this.deps.database.db);
  }

  /** One save: every changed key with its history row, and one audit row with each key's old and new value. */
  async update(actor: Actor, changes: Record<string, string>): Promise<SettingsResponse> {
    const { database, clock } = this.deps;
    // Every key is checked before the transaction opens: one bad value means nothing is written.
    const valid = validateSettingChanges(changes);
    if (valid.size > 0) {
      await database.db.transaction().execute(async (trx) => {
        const written = await writeSettings(trx, database.kind, valid, actor.user.email, clock.now().toISOString());
        if (written.length === 0) return;
        // The vendors over the product limit are a counter (docs/product.md §16.1): a new limit recounts them in this transaction.
        if (written.some((w) => w.key === "max_products_per_vendor")) await recountVendorsOverProductLimit(trx);
        // The storefront acts on the public ones (maintenance mode, announcement, fees, product limit).
        const publicChanges = written.filter((w) => (PUBLIC_SETTING_KEYS as readonly string[]).includes(w.key));
        if (publicChanges.length > 0) await recordEventOut(trx, "settings.changed", { changes: Object.fromEntries(publicChanges.map((w) => [w.key, w.newValue])) }, clock.now().toISOString());
        await recordAudit(
          trx,
          {
            actor,
            action: "settings.update",
            target: { type: "settings", id: "platform", label: written.map((w) => w.key).join(", ") },
            before: Object.fromEntries(written.map((w) => [w.key, w.oldValue])),
            after: Object.fromEntries(written.map((w) => [w.key, w.newValue])),
          },
          clock,
        );
      });
    }
    return readSettings(database.db);
  }

  history(key: SettingKeyName, limit: number, cursor: string | undefined): Promise<SettingHistoryResponse> {
    const after = cursor === undefined ? undefined : readKeyset(cursor, ["time", "string"]);
    return readSettingHistory(this.deps.database.db, key, limit, after && { changedAt: after[0], id: after[1] });
  }
}
