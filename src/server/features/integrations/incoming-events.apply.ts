import type { IncomingEventStatus } from "../../platform/db/schema.ts";
import type { Clock } from "../../platform/clock.ts";
import type { Executor } from "../../platform/db/executor.ts";
import { recordAudit, changedValues } from "../../domain/audit/audit-log.ts";
import { centsToDollars } from "../../domain/money.ts";
import { recordTransferReversal, setPayoutAccount } from "../../domain/ledger/payouts.ts";
import { applyDisputeState, type DisputeChange, type DisputeFacts } from "../../domain/ledger/disputes.ts";
import { currentDisputeFeePayer } from "../../domain/settings/settings.queries.ts";
import { updateVendorProfile } from "../../domain/ledger/vendors.ts";
import { accountStatusOf, connectedAccountFactsOf } from "../../platform/stripe/stripe-payouts.ts";
import {
  type IncomingEventRow,
  advanceVersion,
  endUserAccess,
  findPayoutByTransfer,
  findPayoutStatus,
  findUserAccount,
  findUserIdByEmail,
  findVendorsByOwner,
  findVendorsByStripeAccount,
  insertDeletedAccount,
  lockAccountNoNewerThan,
  setUserEmail,
} from "./incoming-events.queries.ts";

/**
 * What each Stripe or Clerk event does to the panel (docs/integration.md "Stripe's and Clerk's
 * webhooks"), inside the transaction that also records its outcome: applied exactly when it is
 * recorded as processed. Out of order is safe: the newest state of an object wins (a payout
 * account's `checked_at`, a Clerk user's version in incoming_versions; a transfer's reversed
 * amount only grows). Changes are audited as the system's ("system", no actor).
 */

export interface Applied {
  status: Exclude<IncomingEventStatus, "pending" | "failed">;
  outcome: string;
}

/** An event to try again later (its job's next attempt): something it needs is not recorded yet. */
export class NotYetError extends Error {}

interface ApplyContext {
  trx: Executor;
  clock: Clock;
  /** The panel's record of the event, with the verified body. */
  event: IncomingEventRow;
  /** The verified body, parsed. */
  body: Record<string, unknown>;
}

const usd = (cents: number) => `$${centsToDollars(cents).toFixed(2)}`;
const objectOf = (value: unknown): Record<string, unknown> => (value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const ignored = (outcome: string): Applied => ({ status: "ignored", outcome });

export function applyIncomingEvent(c: ApplyContext): Promise<Applied> {
  const { source, type } = c.event;
  if (source === "stripe" && type === "account.updated") return stripeAccountUpdated(c);
  if (source === "stripe" && type === "transfer.reversed") return stripeTransferReversed(c);
  if (source === "stripe" && type.startsWith("charge.dispute.")) return stripeDispute(c);
  if (source === "clerk" && type === "user.updated") return clerkUserUpdated(c);
  if (source === "clerk" && type === "user.deleted") return clerkUserDeleted(c);
  return Promise.resolve(ignored(`The panel does not act on ${type}`));
}

// --- Stripe ---

/** The connected account's status, charges, payouts and requirements as of the event, on every artist paid to it. */
async function stripeAccountUpdated({ trx, clock, event, body }: ApplyContext): Promise<Applied> {
  const account = objectOf(objectOf(body.data).object);
  const accountId = typeof account.id === "string" ? account.id : null;
  if (!accountId) return ignored("The event names no account");
  const vendors = await findVendorsByStripeAccount(trx, accountId);
  if (vendors.length === 0) return ignored(`No artist is paid to ${accountId}`);
  // Stripe signed it: the object is an Account as Stripe's API writes it.
  const facts = connectedAccountFactsOf(account as unknown as Parameters<typeof connectedAccountFactsOf>[0]);
  const status = accountStatusOf(facts);
  const asOf = event.occurred_at;
  const applied: string[] = [];
  for (const vendor of vendors) {
    // A newer state (a later event, or the refresh button after this event was made) stays.
    if (!(await lockAccountNoNewerThan(trx, vendor.vendor_id, asOf))) continue;
    const changed = await setPayoutAccount(trx, vendor.vendor_id, {
      status,
      chargesEnabled: facts.chargesEnabled,
      payoutsEnabled: facts.payoutsEnabled,
      requirements: { currentlyDue: facts.currentlyDue, pastDue: facts.pastDue, disabledReason: facts.disabledReason },
      checkedAt: asOf,
    });
    if (!changed) continue;
    applied.push(vendor.name);
    const values = changedValues(
      { status: changed.before.status, chargesEnabled: changed.before.charges_enabled === 1, payoutsEnabled: changed.before.payouts_enabled === 1 },
      { status, chargesEnabled: facts.chargesEnabled, payoutsEnabled: facts.payoutsEnabled },
    );
    // Only a change is recorded: Stripe sends account.updated for details the panel does not show.
    if (values) {
      await recordAudit(
        trx,
        {
          actor: null,
          action: "payout_account.update",
          target: { type: "vendor", id: vendor.vendor_id, label: vendor.name },
          ...values,
          details: { source: "stripe", eventId: event.event_id, stripeAccountId: accountId, currentlyDue: facts.currentlyDue, pastDue: facts.pastDue, disabledReason: facts.disabledReason },
        },
        clock,
      );
    }
  }
  if (applied.length === 0) return { status: "stale", outcome: `A newer state of ${accountId} is already stored` };
  return { status: "processed", outcome: `${accountId} is ${status} (${applied.join(", ")})` };
}

/** What Stripe took back of a payout's transfer goes back into the artist's balance, once. */
async function stripeTransferReversed({ trx, clock, event, body }: ApplyContext): Promise<Applied> {
  const transfer = objectOf(objectOf(body.data).object);
  const transferId = typeof transfer.id === "string" ? transfer.id : null;
  const reversed = typeof transfer.amount_reversed === "number" ? transfer.amount_reversed : null;
  if (!transferId || reversed === null) return ignored("The event names no transfer and reversed amount");
  const payout = await findPayoutByTransfer(trx, transferId);
  if (!payout) {
    const payoutId = objectOf(transfer.metadata).payout_id;
    // The panel made this transfer (its metadata names the payout) but has not recorded it as paid
    // yet: a payout run or the check with Stripe will, so the event is tried again later.
    if (typeof payoutId === "string" && (await findPayoutStatus(trx, payoutId)) !== undefined) {
      throw new NotYetError(`Payout ${payoutId} has no transfer recorded yet; tried again once its outcome is settled`);
    }
    return ignored(`${transferId} is not a payout of this panel`);
  }
  const result = await recordTransferReversal(trx, payout.id, reversed);
  if (!result) return { status: "stale", outcome: `${usd(reversed)} of ${transferId} reversed: already in ${payout.vendor_name}'s balance` };
  await recordAudit(
    trx,
    {
      actor: null,
      action: "payout.transfer_reversed",
      target: { type: "payout", id: payout.id, label: payout.vendor_name },
      before: { reversedCents: result.payout.reversed_cents - result.addedCents },
      after: { reversedCents: result.payout.reversed_cents },
      details: { source: "stripe", eventId: event.event_id, transferId, vendorId: payout.vendor_id, addedToBalanceCents: result.addedCents },
    },
    clock,
  );
  return { status: "processed", outcome: `${usd(result.addedCents)} of ${transferId} reversed: back in ${payout.vendor_name}'s balance` };
}

/** Stripe's dispute object as the panel reads it (a charge.dispute.* event's `data.object`). */
function disputeFactsOf(dispute: Record<string, unknown>, event: IncomingEventRow): DisputeFacts | null {
  const id = typeof dispute.id === "string" ? dispute.id : null;
  const charge = typeof dispute.charge === "string" ? dispute.charge : typeof objectOf(dispute.charge).id === "string" ? (objectOf(dispute.charge).id as string) : null;
  const amount = typeof dispute.amount === "number" && Number.isInteger(dispute.amount) && dispute.amount >= 0 ? dispute.amount : null;
  if (!id || !charge || amount === null) return null;
  const pi = typeof dispute.payment_intent === "string" ? dispute.payment_intent : null;
  const due = objectOf(dispute.evidence_details).due_by;
  const created = typeof dispute.created === "number" ? new Date(dispute.created * 1000).toISOString() : event.occurred_at;
  // Stripe's dispute fee is in the dispute's balance transactions (15.00 USD when it lists none).
  const transactions = Array.isArray(dispute.balance_transactions) ? dispute.balance_transactions.map(objectOf) : [];
  const fees = transactions.reduce((s, t) => s + (typeof t.fee === "number" && t.fee > 0 ? t.fee : 0), 0);
  return {
    id,
    chargeId: charge,
    paymentIntentId: pi,
    status: typeof dispute.status === "string" ? dispute.status : "needs_response",
    reason: typeof dispute.reason === "string" ? dispute.reason.slice(0, 100) : "general",
    amountCents: amount,
    currency: typeof dispute.currency === "string" ? dispute.currency : "usd",
    evidenceDueBy: typeof due === "number" ? new Date(due * 1000).toISOString() : null,
    feeCents: fees > 0 ? fees : STRIPE_DISPUTE_FEE_CENTS,
    openedAt: created,
    asOf: event.occurred_at,
  };
}

/** Stripe's fee for a dispute in the United States when the event names none. */
const STRIPE_DISPUTE_FEE_CENTS = 1_500;

/** A dispute of a charge that paid order lines: held while open, released when won, taken off the artists when lost (ledger/disputes.ts). */
async function stripeDispute({ trx, clock, event, body }: ApplyContext): Promise<Applied> {
  const facts = disputeFactsOf(objectOf(objectOf(body.data).object), event);
  if (!facts) return ignored("The event names no dispute, charge and amount");
  const feePaidBy = await currentDisputeFeePayer(trx);
  const { change, dispute } = await applyDisputeState(trx, facts, feePaidBy, clock.now().toISOString());
  if (change === "no_order") return ignored(`${facts.chargeId} paid no order of this panel (or none still paid)`);
  if (change === "stale") return { status: "stale", outcome: `A newer state of ${facts.id} is already applied` };
  const what: Record<Exclude<DisputeChange, "no_order" | "stale">, string> = {
    opened: `${facts.id} opened on ${dispute!.external_order_id ?? facts.chargeId}: ${usd(facts.amountCents)} disputed, the artists' shares held`,
    updated: `${facts.id} is ${facts.status}`,
    won: `${facts.id} won: the artists' shares released`,
    lost: `${facts.id} lost: ${usd(facts.amountCents)} taken off the order${feePaidBy === "artist" ? `, Stripe's ${usd(facts.feeCents)} fee charged to the artists` : `, Stripe's fee paid by the platform`}`,
  };
  if (change !== "updated") {
    await recordAudit(
      trx,
      {
        actor: null,
        action: `dispute.${change === "opened" ? "open" : change}`,
        target: { type: "dispute", id: facts.id, label: `${dispute!.external_order_id ?? facts.chargeId} ${usd(facts.amountCents)}` },
        after: { outcome: dispute!.outcome, status: facts.status },
        details: {
          source: "stripe",
          eventId: event.event_id,
          chargeId: facts.chargeId,
          amountCents: facts.amountCents,
          reason: facts.reason,
          ...(change === "lost" ? { feeCents: facts.feeCents, feePaidBy } : {}),
        },
      },
      clock,
    );
  }
  return { status: "processed", outcome: what[change] };
}

// --- Clerk ---

/** The user's verified primary e-mail address (lower-case), as the sign-in provider trusts it (clerk-auth-provider.ts). */
function verifiedPrimaryEmail(user: Record<string, unknown>): string | null {
  const addresses = Array.isArray(user.email_addresses) ? user.email_addresses.map(objectOf) : [];
  const primary = addresses.find((a) => a.id === user.primary_email_address_id);
  const verified = objectOf(primary?.verification).status === "verified";
  return primary && verified && typeof primary.email_address === "string" ? primary.email_address.trim().toLowerCase() : null;
}

/** Time of a Clerk user's state: its `updated_at` (Unix ms), else the event's. */
function clerkVersion(user: Record<string, unknown>, event: IncomingEventRow): string {
  const at = typeof user.updated_at === "number" && Number.isFinite(user.updated_at) ? user.updated_at : Date.parse(event.occurred_at);
  return new Date(at).toISOString();
}

/** The staff member's and the artists' e-mail follow the user's verified primary address at Clerk. */
async function clerkUserUpdated({ trx, clock, event, body }: ApplyContext): Promise<Applied> {
  const user = objectOf(body.data);
  const userId = typeof user.id === "string" ? user.id : null;
  if (!userId) return ignored("The event names no user");
  if (!(await advanceVersion(trx, `clerk:user:${userId}`, clerkVersion(user, event)))) return { status: "stale", outcome: `A newer state of ${userId} was applied before` };
  const staff = await findUserAccount(trx, userId);
  const vendors = await findVendorsByOwner(trx, userId);
  if (!staff && vendors.length === 0) return ignored(`No staff member or artist has the account ${userId}`);
  const email = verifiedPrimaryEmail(user);
  if (!email) return ignored(`${userId} has no verified primary e-mail address: nothing changed`);
  const now = clock.now().toISOString();
  const changed: string[] = [];
  const kept: string[] = [];
  if (staff && staff.email !== email) {
    const holder = await findUserIdByEmail(trx, email);
    if (holder && holder !== staff.id) {
      kept.push(`staff ${staff.email} kept (another account has ${email})`);
    } else {
      await setUserEmail(trx, staff.id, email, now);
      await recordAudit(
        trx,
        {
          actor: null,
          action: "user.email_change",
          target: { type: "user", id: staff.id, label: email },
          before: { email: staff.email },
          after: { email },
          details: { source: "clerk", eventId: event.event_id },
        },
        clock,
      );
      changed.push(`staff ${staff.email}`);
    }
  }
  for (const vendor of vendors) {
    if (vendor.email === email) continue;
    await updateVendorProfile(trx, vendor.id, { email }, clock);
    await recordAudit(
      trx,
      {
        actor: null,
        action: "vendor.email_change",
        target: { type: "vendor", id: vendor.id, label: vendor.name },
        before: { email: vendor.email },
        after: { email },
        details: { source: "clerk", eventId: event.event_id },
      },
      clock,
    );
    changed.push(vendor.name);
  }
  if (changed.length === 0) return { status: "processed", outcome: [`E-mail ${email} already current`, ...kept].join("; ") };
  return { status: "processed", outcome: [`E-mail now ${email}: ${changed.join(", ")}`, ...kept].join("; ") };
}

/** A staff member deleted at Clerk loses access at once; an artist's deleted account goes to the attention inbox. */
async function clerkUserDeleted({ trx, clock, event, body }: ApplyContext): Promise<Applied> {
  const user = objectOf(body.data);
  const userId = typeof user.id === "string" ? user.id : null;
  if (!userId) return ignored("The event names no user");
  // A deletion is the account's last state: any event made before it that arrives later is stale.
  if (!(await advanceVersion(trx, `clerk:user:${userId}`, event.occurred_at))) return { status: "stale", outcome: `A newer state of ${userId} was applied before` };
  const staff = await findUserAccount(trx, userId);
  const vendors = await findVendorsByOwner(trx, userId);
  if (!staff && vendors.length === 0) return ignored(`No staff member or artist has the account ${userId}`);
  const now = clock.now().toISOString();
  const done: string[] = [];
  if (staff && staff.role !== "user") {
    const sessionsRevoked = await endUserAccess(trx, staff.id, now);
    await recordAudit(
      trx,
      {
        actor: null,
        action: "user.access_remove",
        target: { type: "user", id: staff.id, label: staff.email },
        before: { role: staff.role },
        after: { role: "user" },
        details: { source: "clerk", eventId: event.event_id, reason: "account deleted at Clerk", sessionsRevoked },
      },
      clock,
    );
    done.push(`access of ${staff.email} ended (${sessionsRevoked} session${sessionsRevoked === 1 ? "" : "s"} revoked)`);
  } else if (staff) {
    // No panel access to end; sessions of any kind still end with the account.
    const sessionsRevoked = await endUserAccess(trx, staff.id, now);
    if (sessionsRevoked > 0) done.push(`${sessionsRevoked} session${sessionsRevoked === 1 ? "" : "s"} of ${staff.email} revoked`);
  }
  if (vendors.length > 0) {
    await insertDeletedAccount(trx, userId, event.occurred_at, event.event_id);
    done.push(`artist ${vendors.map((v) => v.name).join(", ")} shown in Needs Attention`);
  }
  return { status: "processed", outcome: done.length > 0 ? `${userId} deleted: ${done.join("; ")}` : `${userId} deleted: nothing to end` };
}
