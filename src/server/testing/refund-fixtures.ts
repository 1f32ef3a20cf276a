import { placeOrder } from "../domain/ledger/orders.ts";
import { createProduct } from "../domain/ledger/products.ts";
import { createVendor } from "../domain/ledger/vendors.ts";
import type { Clock } from "../platform/clock.ts";
import type { Executor } from "../platform/db/executor.ts";
import type { Order } from "../platform/db/schema.ts";

/** Test-only: artists and storefront orders paid through a Stripe payment intent, for refund and dispute tests. */

export interface FixtureArtist {
  vendorId: string;
  productId: string;
  account: string;
}

export async function makeArtist(db: Executor, clock: Clock, name: string): Promise<FixtureArtist> {
  const slug = name.toLowerCase().replace(/\W+/g, "-");
  const account = `acct_${slug.replace(/-/g, "")}`;
  const v = await createVendor(
    db,
    { name, ownerName: name, email: `${slug}@example.com`, slug, joinedAt: "2026-09-01T00:00:00.000Z", externalId: `art_${slug}`, payoutAccount: { stripeAccountId: account, status: "active" } },
    clock,
  );
  const p = await createProduct(db, { vendorId: v.id, name: `${name} print`, priceCents: 1000, createdAt: "2026-09-02T00:00:00.000Z" }, clock);
  return { vendorId: v.id, productId: p.id, account };
}

/** One storefront order paid with `pi_<orderId>`: a line per artist with the gross given, fee 1.5 %. */
export async function makePaidOrder(
  db: Executor,
  clock: Clock,
  orderId: string,
  lines: Array<{ artist: FixtureArtist; grossCents: number }>,
  createdAt = "2026-11-01T10:00:00.000Z",
): Promise<Order[]> {
  const out: Order[] = [];
  for (const [i, l] of lines.entries()) {
    out.push(
      await placeOrder(
        db,
        {
          vendorId: l.artist.vendorId,
          productId: l.artist.productId,
          quantity: 1,
          grossCents: l.grossCents,
          feeRateBasisPoints: 150,
          createdAt,
          customerEmail: "buyer@example.com",
          externalOrderId: orderId,
          externalLineId: `line_${i + 1}`,
          paymentIntentId: `pi_${orderId}`,
          chargeId: `ch_${orderId}`,
        },
        clock,
      ),
    );
  }
  return out;
}
