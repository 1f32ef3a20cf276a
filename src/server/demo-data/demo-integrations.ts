import { randomBytes } from "node:crypto";
import type { Executor } from "../platform/db/executor.ts";
import { hashApiKey } from "../platform/identity/api-keys.ts";

const DAY_MS = 86_400_000;

/**
 * The demo's API keys (docs/integration.md), so the Integrations screen is not empty after
 * `npm start`: a storefront key in use and an old one revoked. Their secrets are random and thrown
 * away here, never printed or stored: no demo key can be used. An admin creates a real one.
 */
export async function seedDemoApiKeys(trx: Executor, options: { now: Date; adminEmail: string }): Promise<number> {
  const t = options.now.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  const row = (id: string, name: string, createdMs: number, usedMs: number | null, revokedMs: number | null) => {
    const secret = randomBytes(32).toString("base64url");
    return {
      id,
      name,
      scopes: JSON.stringify(["events:write"]),
      key_hash: hashApiKey(`hki_sk_${secret}`),
      prefix: `hki_sk_${secret.slice(0, 4)}`,
      last_four: secret.slice(-4),
      created_by_id: null,
      created_by_email: options.adminEmail,
      created_at: iso(createdMs),
      last_used_at: usedMs === null ? null : iso(usedMs),
      revoked_at: revokedMs === null ? null : iso(revokedMs),
      revoked_by_email: revokedMs === null ? null : options.adminEmail,
    };
  };
  const rows = [
    row("0190a000-0000-7000-8000-00000000a001", "Storefront (demo)", t - 40 * DAY_MS, t - 5 * 60_000, null),
    row("0190a000-0000-7000-8000-00000000a002", "Storefront staging (old)", t - 90 * DAY_MS, t - 20 * DAY_MS, t - 12 * DAY_MS),
  ];
  await trx.insertInto("api_keys").values(rows).execute();
  return rows.length;
}
