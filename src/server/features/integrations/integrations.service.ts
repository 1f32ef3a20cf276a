import { type ApiKey, type ApiKeysResponse, type CreateApiKeyRequest, type CreatedApiKey, MAX_LIVE_API_KEYS } from "../../../contract/integrations.ts";
import { recordAudit } from "../../domain/audit/audit-log.ts";
import { newId } from "../../platform/db/ids.ts";
import { conflict, notFound } from "../../platform/http/http-error.ts";
import type { Actor } from "../../platform/identity/actor.ts";
import { newApiKeySecret, parseScopes } from "../../platform/identity/api-keys.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { type ApiKeyRow, countLiveApiKeys, findApiKey, insertApiKey, listApiKeys, revokeApiKeyRow } from "./integrations.queries.ts";

/** Revoked keys stay in the list this long, so an admin sees what was revoked recently. */
const REVOKED_SHOWN_DAYS = 30;
const DAY_MS = 86_400_000;

function toApiKey(r: ApiKeyRow): ApiKey {
  return {
    id: r.id,
    name: r.name,
    scopes: parseScopes(r.scopes),
    prefix: r.prefix,
    lastFour: r.last_four,
    createdBy: r.created_by_email,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

/**
 * The Integrations screen's API keys (docs/integration.md): made, listed and revoked by admins,
 * each change with its audit row in its transaction. The key is in the creation's answer only;
 * neither the key nor its hash is ever in an answer, an audit row or a log.
 */
export class IntegrationsService {
  constructor(private readonly deps: Pick<AppDeps, "database" | "clock">) {}

  private get db() {
    return this.deps.database.db;
  }

  async createApiKey(actor: Actor, input: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const { clock } = this.deps;
    const secret = newApiKeySecret();
    const row: ApiKeyRow = {
      id: newId(),
      name: input.name,
      scopes: JSON.stringify(input.scopes),
      key_hash: secret.hash,
      prefix: secret.prefix,
      last_four: secret.lastFour,
      created_by_id: actor.user.id,
      created_by_email: actor.user.email,
      created_at: clock.now().toISOString(),
      last_used_at: null,
      revoked_at: null,
      revoked_by_email: null,
    };
    await this.db.transaction().execute(async (trx) => {
      if ((await countLiveApiKeys(trx)) >= MAX_LIVE_API_KEYS) throw conflict(`There are already ${MAX_LIVE_API_KEYS} live API keys; revoke one first`);
      await insertApiKey(trx, row);
      await recordAudit(
        trx,
        {
          actor,
          action: "api_key.create",
          target: { type: "api_key", id: row.id, label: row.name },
          after: { name: row.name, scopes: input.scopes },
          details: { name: row.name, scopes: input.scopes, prefix: row.prefix, lastFour: row.last_four },
        },
        clock,
      );
    });
    return { apiKey: toApiKey(row), key: secret.key };
  }

  async listApiKeys(): Promise<ApiKeysResponse> {
    const since = new Date(this.deps.clock.now().getTime() - REVOKED_SHOWN_DAYS * DAY_MS).toISOString();
    const rows = await listApiKeys(this.db, since, MAX_LIVE_API_KEYS * 4);
    // Live keys first (the ones that matter), each group newest first.
    const items = [...rows.filter((r) => r.revoked_at === null), ...rows.filter((r) => r.revoked_at !== null).sort((a, b) => (b.revoked_at! < a.revoked_at! ? -1 : 1))].map(toApiKey);
    return { items };
  }

  /** Revokes a key at once: every process reads keys from the database on each request (platform/identity/api-keys.ts). */
  async revokeApiKey(actor: Actor, id: string): Promise<{ apiKey: ApiKey }> {
    const { clock } = this.deps;
    return this.db.transaction().execute(async (trx) => {
      const row = await findApiKey(trx, id);
      if (!row) throw notFound("No API key with that id");
      if (row.revoked_at !== null) throw conflict(`The API key ${row.name} was already revoked`);
      const at = clock.now().toISOString();
      if (!(await revokeApiKeyRow(trx, id, at, actor.user.email))) throw conflict(`The API key ${row.name} was already revoked`);
      await recordAudit(
        trx,
        {
          actor,
          action: "api_key.revoke",
          target: { type: "api_key", id, label: row.name },
          before: { revoked: false },
          after: { revoked: true },
          details: { name: row.name, prefix: row.prefix, lastFour: row.last_four, lastUsedAt: row.last_used_at },
        },
        clock,
      );
      return { apiKey: toApiKey({ ...row, revoked_at: at, revoked_by_email: actor.user.email }) };
    });
  }
}
