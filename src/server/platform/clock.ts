/** Injected wherever "now" matters, so tests can move time (rate-limit windows, 24 h markers, 30-day cleanup). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export function fixedClock(start: Date | string): Clock & { set(d: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (d) => {
      current = new Date(d);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

/** "YYYY-MM-DD" of a UTC instant. */
export function utcDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
