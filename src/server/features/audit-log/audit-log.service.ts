import type { AuditEntry, AuditLogFilters, AuditLogQuery, AuditLogResponse } from "../../../contract/audit-log.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import { decodeCursor, encodeCursor } from "../../platform/http/keyset-cursor.ts";
import { type AuditRow, type AuditRowFilters, listAuditRows } from "../../domain/audit/audit.queries.ts";

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A filter's time bound as ISO text: a bare day is its start (`from`) or the next day's start (`to`, exclusive). */
export function timeBound(value: string, edge: "from" | "to"): string {
  if (DAY_ONLY.test(value)) {
    const start = Date.parse(`${value}T00:00:00.000Z`);
    return new Date(edge === "from" ? start : start + DAY_MS).toISOString();
  }
  return new Date(value).toISOString();
}

/** The contract's filters as the queries take them (time bounds resolved). */
export function rowFilters(filters: AuditLogFilters): AuditRowFilters {
  return {
    actorEmail: filters.actor,
    action: filters.action,
    targetType: filters.targetType,
    targetId: filters.targetId,
    from: filters.from === undefined ? undefined : timeBound(filters.from, "from"),
    to: filters.to === undefined ? undefined : timeBound(filters.to, "to"),
  };
}

function parseObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { value: text };
  }
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    actor: { id: row.actor_id, email: row.actor_email, role: row.actor_role },
    action: row.action,
    target: { type: row.target_type, id: row.target_id, label: row.target_label },
    before: parseObject(row.before_value),
    after: parseObject(row.after_value),
    details: parseObject(row.details) ?? {},
    ipAddress: row.ip_address,
    userAgent: row.user_agent,
    requestId: row.request_id,
  };
}

/** The audit log (docs/product.md §14.4): read newest first by keyset, filtered through indexes. */
export class AuditLogService {
  constructor(private readonly deps: Pick<AppDeps, "database">) {}

  async list(query: AuditLogQuery): Promise<AuditLogResponse> {
    const after = query.cursor ? decodeCursor(query.cursor) : undefined;
    const page = await listAuditRows(this.deps.database.db, rowFilters(query), after, query.limit);
    return { entries: page.rows.map(toAuditEntry), nextCursor: page.next ? encodeCursor(page.next) : null };
  }
}
