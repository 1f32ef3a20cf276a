/**
 * Long work taken in steps, one step per turn of the event loop across every caller that shares
 * the turns. On SQLite a statement never waits for I/O, so a step started from `setImmediate` runs
 * to its end within the loop's check phase: with each caller yielding on its own, N concurrent
 * callers would take N steps per turn, and a request arriving meanwhile would wait for all N. Taking
 * turns, it waits for one. On PostgreSQL a step waits for the database and steps overlap as before:
 * only their starts are paced.
 */
export class EventLoopTurns {
  private readonly waiting: Array<() => void> = [];

  /** Resolves on a later turn of the event loop, after the callers that asked before. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (this.waiting.length === 1) setImmediate(this.grant);
    });
  }

  private readonly grant = (): void => {
    const caller = this.waiting.shift()!;
    if (this.waiting.length > 0) setImmediate(this.grant);
    caller();
  };
}
