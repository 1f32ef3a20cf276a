import type { SettingHistoryResponse, SettingKeyName, SettingsResponse } from "../../contract/settings.ts";
import type { AppDeps } from "../app-env.ts";
import type { ActingUser } from "../http/endpoint-router.ts";
import { validateSettingChanges } from "./settings-validation.ts";
import { readSettingHistory, readSettings, writeSettings } from "./settings.queries.ts";

/** Platform settings (docs/product.md §7 Settings): read, change with validation and history. */
export class SettingsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  read(): Promise<SettingsResponse> {
    return readSettings(this.deps.database.db);
  }

  async update(actor: ActingUser, changes: Record<string, string>): Promise<SettingsResponse> {
    const { database, clock } = this.deps;
    // Every key is checked before the transaction opens: one bad value means nothing is written.
    const valid = validateSettingChanges(changes);
    if (valid.size > 0) {
      await database.db.transaction().execute((trx) => writeSettings(trx, database.kind, valid, actor.email, clock.now().toISOString()));
    }
    return readSettings(database.db);
  }

  history(key: SettingKeyName, limit: number, cursor: string | undefined): Promise<SettingHistoryResponse> {
    return readSettingHistory(this.deps.database.db, key, limit, cursor);
  }
}
