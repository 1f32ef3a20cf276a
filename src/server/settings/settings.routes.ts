import { Hono } from "hono";
import { settingHistoryQuerySchema, settingsUpdateRequestSchema } from "../../contract/settings.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";
import { readJsonBody, readQuery } from "../http/validate.ts";
import { validateSettingChanges } from "./settings-validation.ts";
import { readSettingHistory, readSettings, writeSettings } from "./settings.queries.ts";

/** Platform settings (spec §2 Settings, §7): read, change with validation and history, history pages. */
export function settingsRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { db, kind } = deps.database;

  app.get("/admin/settings", async (c) => c.json(await readSettings(db)));

  app.put("/admin/settings", async (c) => {
    const body = await readJsonBody(c, settingsUpdateRequestSchema);
    // Every key is checked before the transaction opens: one bad value means nothing is written.
    const changes = validateSettingChanges(body);
    // The admin guard ran for this prefix, so the user is present.
    const actor = c.get("user")!.email;
    await writeSettings(db, kind, changes, actor, deps.clock.now().toISOString());
    return c.json(await readSettings(db));
  });

  app.get("/admin/settings/history", async (c) => {
    const query = readQuery(c, settingHistoryQuerySchema);
    return c.json(await readSettingHistory(db, query.key, query.limit, query.cursor));
  });

  return app;
}
