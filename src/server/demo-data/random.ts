/**
 * A small seeded PRNG (mulberry32) and helpers, so the demo seed and the large-data generator
 * produce the same rows for the same seed on every machine and both databases.
 */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  /**
   * A UUIDv7-shaped id whose time part is `ms` and whose random part comes from this PRNG:
   * deterministic, and sorting like the app's newId() (by creation time).
   */
  id(ms: number): string {
    const hex = (n: number, len: number) => n.toString(16).padStart(len, "0");
    const time = hex(Math.max(0, Math.floor(ms)), 12);
    const r1 = Math.floor(this.next() * 0x1000);
    const r2 = 0x8000 | Math.floor(this.next() * 0x4000);
    const r3 = Math.floor(this.next() * 0x1000000);
    const r4 = Math.floor(this.next() * 0x1000000);
    return `${time.slice(0, 8)}-${time.slice(8)}-7${hex(r1, 3)}-${hex(r2, 4)}-${hex(r3, 6)}${hex(r4, 6)}`;
  }
}

export const DAY_MS = 86_400_000;

/** 00:00 UTC of the day containing `d`, in epoch ms. */
export function startOfUtcDay(d: Date): number {
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}
