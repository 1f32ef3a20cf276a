import { getSettingsEndpoint, settingHistoryEndpoint, updateSettingsEndpoint } from "../../../contract/settings.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { SettingsService } from "./settings.service.ts";

/** Platform settings (docs/product.md §7 Settings, §10.7). */
export function settingsRoutes(router: EndpointRouter, deps: AppDeps): void {
  const settings = new SettingsService(deps);
  router.handle(getSettingsEndpoint, (_input) => settings.read());
  router.handle(updateSettingsEndpoint, ({ body }, { actor }) => settings.update(actor, body));
  router.handle(settingHistoryEndpoint, ({ query }) => settings.history(query.key, query.limit, query.cursor));
}
