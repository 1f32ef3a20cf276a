import { availableParallelism } from "node:os";

/**
 * Bounds the CPU sign-in can take (docs/product.md §1.5). Every password check costs one scrypt
 * (N=2^17, ~128 MB and a few hundred ms of one core, on libuv's small thread pool), so checks run
 * at most `concurrency` at a time per process, behind a short queue. A check that finds the queue
 * full — or its own address already holding `maxPerAddress` places — is refused at once (429)
 * instead of waiting: a flood of sign-ins cannot make a legitimate one wait seconds, nor starve
 * the thread pool the rest of the server uses.
 */
export interface SignInThrottleOptions {
  /** Password checks running at once in this process. */
  concurrency?: number;
  /** Checks waiting for a turn, beyond those running. */
  maxQueued?: number;
  /** Places (running or waiting) one client address may hold. */
  maxPerAddress?: number;
  /** How long an attempt on an account above its account-wide ceiling waits before its check. */
  ceilingDelayMs?: number;
}

export class SignInThrottle {
  readonly concurrency: number;
  readonly maxQueued: number;
  readonly maxPerAddress: number;
  readonly ceilingDelayMs: number;
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly held = new Map<string, number>();

  constructor(options: SignInThrottleOptions = {}) {
    // Half the cores: the other half (and the event loop) keep serving everything else.
    this.concurrency = options.concurrency ?? Math.max(1, Math.floor(availableParallelism() / 2));
    this.maxQueued = options.maxQueued ?? 8;
    this.maxPerAddress = options.maxPerAddress ?? 2;
    this.ceilingDelayMs = options.ceilingDelayMs ?? 2000;
  }

  /** Checks running or waiting right now. */
  get inFlight(): number {
    return this.running + this.waiting.length;
  }

  /**
   * Runs `task` when a place is free, or answers null at once when there is none (queue full, or
   * this address holds its share). The caller answers 429 for null.
   */
  tryRun<T>(addressKey: string, task: () => Promise<T>): Promise<T> | null {
    const heldByAddress = this.held.get(addressKey) ?? 0;
    if (heldByAddress >= this.maxPerAddress) return null;
    if (this.running >= this.concurrency && this.waiting.length >= this.maxQueued) return null;
    this.held.set(addressKey, heldByAddress + 1);
    return this.runInTurn(task).finally(() => {
      const left = (this.held.get(addressKey) ?? 1) - 1;
      if (left === 0) this.held.delete(addressKey);
      else this.held.set(addressKey, left);
    });
  }

  /** The pause before checking a password of an account over its account-wide ceiling. */
  delay(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, this.ceilingDelayMs));
  }

  private async runInTurn<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      // Hand the place straight to the next in line (running stays the same), or free it.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
