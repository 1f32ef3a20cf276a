import { describe, expect, it } from "vitest";
import { EventLoopTurns } from "./event-loop-turns.ts";

/** Synchronous steps (as SQLite's are) from several callers: how many run between two turns of the event loop. */
async function stepsPerTurn(takeTurn: () => Promise<void>): Promise<number[]> {
  let steps = 0;
  const perTurn: number[] = [];
  let running = true;
  const sampler = () => {
    perTurn.push(steps);
    steps = 0;
    if (running) setImmediate(sampler);
  };
  setImmediate(sampler);
  await Promise.all(
    [1, 2, 3, 4].map(async () => {
      for (let i = 0; i < 20; i++) {
        await takeTurn();
        steps++;
      }
    }),
  );
  running = false;
  return [...perTurn, steps];
}

describe("EventLoopTurns", () => {
  it("lets one step run per turn of the event loop however many callers take steps", async () => {
    const turns = new EventLoopTurns();
    const perTurn = await stepsPerTurn(() => turns.next());
    expect(Math.max(...perTurn)).toBe(1);
    expect(perTurn.reduce((a, b) => a + b, 0)).toBe(80);
  });

  it("(what it prevents) callers yielding on their own take one step each per turn", async () => {
    const perTurn = await stepsPerTurn(() => new Promise<void>((resolve) => setImmediate(resolve)));
    expect(Math.max(...perTurn)).toBe(4);
  });
});
