import type { Executor } from "../../platform/db/executor.ts";
import { type CounterName, incrementCounters } from "./counters.ts";
import { addToBalanceTotals, type BalanceTotalsChange } from "./payouts.ts";
import { addToDailyPlatformTotals, type PlatformDayDeltas, sumByKey } from "./rollups.ts";

/**
 * The rows every sale moves — the counters, the platform's days, the payout balance totals —
 * gathered while a ledger transaction writes its own rows, and written at its end (`writeTo`), in
 * that order. On PostgreSQL an update holds its row's lock until the commit, so every concurrent
 * sale waits on these rows: written last, they are held for the fewest statements, and every sale
 * takes them in the same order (docs/decisions/0024-shared-rows-last.md).
 */
export class SharedRows {
  private readonly counters: Partial<Record<CounterName, number>> = {};
  private readonly platformDays: Array<{ day: string; deltas: PlatformDayDeltas }> = [];
  private readonly balances: BalanceTotalsChange = new Map();

  addToCounters(deltas: Partial<Record<CounterName, number>>): this {
    for (const [name, delta] of Object.entries(deltas) as Array<[CounterName, number]>) this.counters[name] = (this.counters[name] ?? 0) + delta;
    return this;
  }

  addToPlatformDay(day: string, deltas: PlatformDayDeltas): this {
    this.platformDays.push({ day, deltas });
    return this;
  }

  addToBalanceTotals(change: BalanceTotalsChange): this {
    for (const [status, { vendors, cents }] of change) {
      const sum = this.balances.get(status) ?? { vendors: 0, cents: 0 };
      this.balances.set(status, { vendors: sum.vendors + vendors, cents: sum.cents + cents });
    }
    return this;
  }

  /** Writes what was gathered: one statement for the counters, one per platform day and per account status, each in key order. */
  async writeTo(trx: Executor): Promise<void> {
    await incrementCounters(trx, this.counters);
    for (const [day, { deltas }] of sumByKey(
      this.platformDays,
      (d) => d.day,
      (d) => d.deltas,
    ))
      await addToDailyPlatformTotals(trx, day, deltas);
    for (const status of [...this.balances.keys()].sort()) {
      const { vendors, cents } = this.balances.get(status)!;
      await addToBalanceTotals(trx, status, vendors, cents);
    }
  }
}
