import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createVendor } from "../../domain/ledger/vendors.ts";
import { createTestContext, type TestContext, testDatabaseKinds } from "../../testing/test-app.ts";
import { nextEligibleAccounts } from "./financials.queries.ts";

const NOW = "2026-11-22T12:00:00.000Z";

/** An artist not admitted (docs/product.md §20.2: application pending, changes asked for, rejected) is never paid, whatever its account and balance. */
describe.each(testDatabaseKinds)("payout eligibility of artists not admitted (%s)", (kind) => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestContext(kind, { now: NOW });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it("a run plans only the approved artist of four with an active account and the same balance", async () => {
    const made: Record<string, string> = {};
    for (const approvalStatus of ["approved", "pending", "changes_requested", "rejected"] as const) {
      const v = await createVendor(
        ctx.database.db,
        {
          name: approvalStatus,
          ownerName: "O",
          email: `${approvalStatus}@example.com`,
          slug: approvalStatus.replace("_", "-"),
          approvalStatus,
          payoutAccount: { stripeAccountId: `acct_${approvalStatus.replace("_", "")}`, status: "active" },
        },
        ctx.clock,
      );
      made[approvalStatus] = v.id;
    }
    // A balance owed to each (as if each had sold before): only the admission differs.
    await ctx.database.db.updateTable("payout_accounts").set({ balance_cents: 10_000 }).execute();
    const { accounts } = await nextEligibleAccounts(ctx.database.db, 2500, null, 100);
    expect(accounts.map((a) => a.vendorId)).toEqual([made.approved]);
  });
});
