import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * `npm run dev`: the API with reload (`tsx watch src/server/main.ts`) and the Vite dev server, side by
 * side, each output line prefixed with its name. When either stops, or on Ctrl-C, both stop.
 */
const PROCESSES = [
  { name: "api", args: ["node_modules/tsx/dist/cli.mjs", "watch", "src/server/main.ts"] },
  { name: "web", args: ["node_modules/vite/bin/vite.js"] },
];

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
}

for (const { name, args } of PROCESSES) {
  const child = spawn(process.execPath, args, { stdio: ["inherit", "pipe", "pipe"], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" } });
  children.push(child);
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on("line", (line) => process.stdout.write(`[${name}] ${line}\n`));
  }
  child.on("exit", (code, signal) => {
    if (!stopping) console.log(`[${name}] stopped (${signal ?? `exit ${code}`}); stopping the other`);
    stopAll(code ?? 1);
  });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stopAll(0));
