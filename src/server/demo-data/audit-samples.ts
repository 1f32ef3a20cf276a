import type { BulkTarget, RowSink } from "./row-sink.ts";
import { Random } from "./random.ts";

/** Who acts in generated audit rows: one busy admin, a few others, and the system's sweeps. */
const ACTORS: ReadonlyArray<readonly [{ email: string; role: string | null }, number]> = [
  [{ email: "admin@hki.global", role: "admin" }, 60],
  [{ email: "ops@hki.global", role: "admin" }, 20],
  [{ email: "support@hki.global", role: "admin" }, 12],
  [{ email: "finance.lead@example.com", role: "admin" }, 6],
  [{ email: "system", role: null }, 2],
];

const ACTIONS: ReadonlyArray<readonly [string, number]> = [
  ["auth.sign_in", 30],
  ["error_logs.archive", 22],
  ["vendor.disable", 14],
  ["vendor.enable", 14],
  ["auth.sign_in_failed", 6],
  ["settings.update", 6],
  ["invitation.create", 3],
  ["user.role_change", 2],
  ["error_logs.archive_all", 2],
  ["vendor.delete", 1],
];

const SETTINGS = ["platform_fee_percentage", "announcement_message", "maintenance_mode", "support_email"] as const;

/**
 * Audit rows for the benchmark data set (docs/product.md §12.3: the log must stay fast at a million
 * rows), spread over the generated period with realistic actors, actions and targets (vendors of
 * the data set). Uses its own PRNG, so adding them leaves every other generated row unchanged.
 */
export async function generateAuditRows(
  database: BulkTarget,
  sink: RowSink,
  input: { count: number; seed: number; startMs: number; nowMs: number; progress: (message: string) => void },
): Promise<number> {
  if (input.count <= 0) return 0;
  const rand = new Random(input.seed ^ 0x7f4a7c15);
  // A sample of the data set's vendors as targets (read back after they were written).
  const vendors = await database.db.selectFrom("vendors").select(["id", "name"]).orderBy("id").limit(20_000).execute();
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let k = 0; k < input.count; k++) {
    const t = input.startMs + Math.floor(rand.next() * (input.nowMs - input.startMs));
    const actor = rand.weighted(ACTORS);
    const action = rand.weighted(ACTIONS);
    const vendor = vendors.length > 0 ? rand.pick(vendors) : { id: "none", name: "none" };
    let target: [string, string, string | null] = ["vendor", vendor.id, vendor.name];
    let before: object | null = null;
    let after: object | null = null;
    let details: object = {};
    if (action === "vendor.disable" || action === "vendor.enable") {
      before = { isActive: action === "vendor.enable" ? false : true };
      after = { isActive: action === "vendor.enable" };
    } else if (action === "vendor.delete") {
      before = { name: vendor.name };
    } else if (action === "settings.update") {
      const key = rand.pick(SETTINGS);
      target = ["settings", "platform", key];
      before = { [key]: String(rand.int(1, 9)) };
      after = { [key]: String(rand.int(1, 9)) };
    } else if (action === "error_logs.archive") {
      target = ["error_log", rand.id(t), "Database timeout"];
    } else if (action === "error_logs.archive_all") {
      target = ["error_logs", "all", "all entries"];
      details = { level: null, archived: rand.int(1, 5000) };
    } else if (action.startsWith("auth.")) {
      target = ["user", rand.id(t), actor.email];
    } else if (action === "user.role_change") {
      target = ["user", rand.id(t), `staff${rand.int(1, 40)}@example.com`];
      before = { role: "viewer" };
      after = { role: "admin" };
    } else if (action === "invitation.create") {
      target = ["invitation", rand.id(t), `invitee${rand.int(1, 500)}@example.com`];
      after = { role: "viewer" };
    }
    await sink.add("audit_log", {
      id: rand.id(t),
      actor_email: actor.email,
      actor_id: null,
      actor_role: actor.role,
      action,
      target_type: target[0],
      target_id: target[1],
      target_label: target[2],
      before_value: before ? JSON.stringify(before) : null,
      after_value: after ? JSON.stringify(after) : null,
      details: JSON.stringify(details),
      ip_address: `203.0.113.${rand.int(1, 254)}`,
      user_agent: "Mozilla/5.0 (generated)",
      request_id: `gen-${k}`,
      created_at: iso(t),
    });
    if ((k + 1) % 100_000 === 0) input.progress(`audit rows ${k + 1}/${input.count}`);
  }
  return input.count;
}
