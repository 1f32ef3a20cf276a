import { describe, expect, it } from "vitest";
import { fixedClock } from "../platform/clock.ts";
import { readCounters } from "../domain/ledger/counters.ts";
import { compareRollups } from "../domain/ledger/recompute.ts";
import { testBackends } from "../testing/test-databases.ts";
import { SETTING_KEYS } from "../domain/settings/settings-catalog.ts";
import { DEMO_FINANCE_EMAIL, DEMO_INVITED_EMAIL, DEMO_SUPPORT_EMAIL, DEMO_VIEWER_EMAIL } from "./demo-staff.ts";
import { seedDemoData } from "./demo.ts";

const NOW = "2026-03-10T15:30:00.000Z";

describe.each(testBackends())("demo seed on $kind", (backend) => {
  it("fills an empty database once, with consistent rollups and the promised variety", { timeout: 60_000 }, async () => {
    const t = await backend.open();
    try {
      // Speed is a benchmark concern (npm run bench), not a timed assertion on a shared machine.
      const summary = await seedDemoData(t.db, { clock: fixedClock(NOW), seed: 7 });
      expect(summary.seeded).toBe(true);
      // 60 artists and 7 applicants (demo-applications.ts).
      expect(summary.vendors).toBe(67);
      expect(summary.products).toBeGreaterThan(200);
      expect(summary.orders).toBeGreaterThan(800);
      expect(summary.refunded + summary.cancelled).toBeGreaterThan(0);
      expect(await compareRollups(t.db)).toEqual([]);
      // Refunds from the panel in every state, one netted from the artist's next payout (demo-refunds.ts).
      const refundStates = await t.db.selectFrom("refunds").select("status").distinct().execute();
      expect(refundStates.map((r) => r.status).sort()).toEqual(["failed", "pending", "succeeded", "unknown"]);
      expect(await t.db.selectFrom("order_refunds").select("id").where("netted_payout_id", "is not", null).execute()).toHaveLength(1);
      const held = await t.db.selectFrom("orders").select("refund_reserved_cents").where("refund_reserved_cents", ">", 0).execute();
      expect(held).toHaveLength(2);
      // Disputes: two open (held), one won, two lost (one with Stripe's fee charged to the artist).
      const disputes = await t.db.selectFrom("disputes").select(["outcome", "fee_paid_by"]).orderBy("id").execute();
      expect(disputes.map((d) => d.outcome)).toEqual(["open", "open", "won", "lost", "lost"]);
      expect(disputes.map((d) => d.fee_paid_by)).toEqual([null, null, null, "platform", "artist"]);

      const c = await readCounters(t.db);
      expect(c.vendors_total).toBe(67);
      expect(c.vendors_pending).toBe(5);
      expect(c.vendors_internal).toBeGreaterThanOrEqual(3);
      expect(c.vendors_active).toBeLessThan(60);
      expect(c.mrr_cents).toBeGreaterThan(0);

      const hostile = await t.db
        .selectFrom("vendors")
        .select("id")
        .where((eb) => eb.or([eb("custom_html", "like", "%<script%"), eb("custom_css", "like", "%expression(%")]))
        .execute();
      expect(hostile.length).toBeGreaterThanOrEqual(2);

      const levels = await t.db.selectFrom("error_logs").select("level").distinct().execute();
      expect(levels.map((l) => l.level).sort()).toEqual(["error", "info", "warning"]);
      const oldArchived = await t.db
        .selectFrom("error_logs")
        .select("id")
        .where("archived_at", "<", new Date(Date.parse(NOW) - 30 * 86_400_000).toISOString())
        .execute();
      expect(oldArchived.length).toBeGreaterThan(0);
      const future = await t.db.selectFrom("orders").select("id").where("created_at", ">", NOW).execute();
      expect(future).toEqual([]);
      const oldRate = await t.db.selectFrom("orders").select("id").where("fee_rate_basis_points", "<>", 150).execute();
      expect(oldRate.length).toBeGreaterThan(0);
      expect((await t.db.selectFrom("platform_settings").select("key").execute()).length).toBe(SETTING_KEYS.length);

      expect((await seedDemoData(t.db, { clock: fixedClock(NOW), seed: 7 })).seeded).toBe(false);
      expect((await readCounters(t.db)).vendors_total).toBe(67);
    } finally {
      await t.close();
    }
  });

  it("is deterministic: the same seed on the same day gives the same data", { timeout: 180_000 }, async () => {
    const snapshot = async (now: string) => {
      const t = await backend.open();
      try {
        await seedDemoData(t.db, { clock: fixedClock(now), seed: 11 });
        const vendors = await t.db.selectFrom("vendors").select(["id", "name", "slug", "email", "joined_at", "is_active"]).orderBy("id").execute();
        const orders = await t.db.selectFrom("orders").select(["id", "gross_cents", "fee_cents", "status"]).orderBy("id").execute();
        const days = await t.db.selectFrom("daily_platform_totals").selectAll().orderBy("day").execute();
        const logs = await t.db.selectFrom("error_logs").select(["id", "level", "message"]).orderBy("id").execute();
        return { vendors, orders, days, logs };
      } finally {
        await t.close();
      }
    };
    const a = await snapshot("2026-03-10T09:00:00.000Z");
    const b = await snapshot("2026-03-10T09:00:00.000Z");
    expect(b).toEqual(a);
    // Later the same day: the same names, amounts and daily totals of past days.
    const c = await snapshot("2026-03-10T20:00:00.000Z");
    expect(c.vendors.map((v) => v.name)).toEqual(a.vendors.map((v) => v.name));
    expect(c.orders.map((o) => o.gross_cents)).toEqual(a.orders.map((o) => o.gross_cents));
    expect(c.days.filter((d) => d.day < "2026-03-10")).toEqual(a.days.filter((d) => d.day < "2026-03-10"));
  });
});

describe.each(testBackends())("demo staff on $kind", (backend) => {
  it("adds a viewer, a pending invitation and audit rows consistent with the data", { timeout: 60_000 }, async () => {
    const t = await backend.open();
    try {
      await seedDemoData(t.db, { clock: fixedClock(NOW), seed: 7 });
      const viewer = await t.db.selectFrom("users").selectAll().where("email", "=", DEMO_VIEWER_EMAIL).executeTakeFirstOrThrow();
      expect(viewer.role).toBe("viewer");
      // Each job role has someone holding it, the finance one by a role change the audit log shows.
      const jobRoles = await t.db.selectFrom("users").select(["email", "role"]).where("email", "in", [DEMO_FINANCE_EMAIL, DEMO_SUPPORT_EMAIL]).orderBy("role").execute();
      expect(jobRoles).toEqual([
        { email: DEMO_FINANCE_EMAIL, role: "finance" },
        { email: DEMO_SUPPORT_EMAIL, role: "support" },
      ]);
      const open = await t.db.selectFrom("user_invitations").selectAll().where("accepted_at", "is", null).execute();
      expect(open.map((i) => [i.email, i.role])).toEqual([[DEMO_INVITED_EMAIL, "admin"]]);
      expect(open[0]!.expires_at > NOW).toBe(true);
      const audit = await t.db.selectFrom("audit_log").selectAll().orderBy("created_at").execute();
      expect(audit.map((a) => a.action)).toContain("invitation.accept");
      expect(audit.every((a) => a.created_at <= NOW)).toBe(true);
      const disabled = audit.find((a) => a.action === "vendor.disable");
      if (disabled) {
        const vendor = await t.db.selectFrom("vendors").select("is_active").where("id", "=", disabled.target_id).executeTakeFirstOrThrow();
        expect(vendor.is_active).toBe(0);
      }
    } finally {
      await t.close();
    }
  });
});
