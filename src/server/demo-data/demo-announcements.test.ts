import { describe, expect, it } from "vitest";
import { announcementsResponseSchema, publicAnnouncementsResponseSchema, recipientsResponseSchema } from "../../contract/communications.ts";
import { createTestContext } from "../testing/test-app.ts";
import { DEMO_REFUSED_MAIL } from "./demo-announcements.ts";

describe("the demo's announcements (docs/product.md §17)", () => {
  it("hold one sent, one with a refused mail and one current dashboard banner, their counts true to their recipients", async () => {
    const t = await createTestContext("sqlite", { seedDemo: true });
    try {
      const admin = await t.createUser({ email: "demo-check@hki.global", role: "admin" });
      const history = announcementsResponseSchema.parse(await (await t.request("/api/admin/communications/announcements", { token: admin.token })).json()).announcements;
      expect(history.map((a) => a.title)).toEqual(["Holiday shipping deadlines", "New payout schedule", "Welcome to the winter season"]);
      for (const a of history) {
        const rows = await t.database.db.selectFrom("announcement_recipients").select(["status"]).where("announcement_id", "=", a.id).execute();
        expect(a.recipients).toBe(rows.length);
        expect(a.sent).toBe(rows.filter((r) => r.status === "sent").length);
        expect(a.failed).toBe(rows.filter((r) => r.status === "failed").length);
        expect(a).toMatchObject({ status: "sent", pending: 0 });
      }
      const failing = history.find((a) => a.failed === 1)!;
      const failed = recipientsResponseSchema.parse(
        await (await t.request(`/api/admin/communications/announcements/${failing.id}/recipients?status=failed`, { token: admin.token })).json(),
      ).recipients;
      expect(failed).toHaveLength(1);
      expect(failed[0]!.lastError).toBe(DEMO_REFUSED_MAIL);
      const banner = publicAnnouncementsResponseSchema.parse(await (await t.request("/api/public/announcements")).json()).announcements;
      expect(banner.map((b) => b.title)).toEqual(["Holiday shipping deadlines"]);
    } finally {
      await t.close();
    }
  });
});
