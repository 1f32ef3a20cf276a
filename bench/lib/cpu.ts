import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { childPids } from "./server-process.ts";

let ticksPerSecond: number | null = null;
/** The kernel's clock ticks per second (USER_HZ), the unit of /proc/<pid>/stat's CPU times. */
function clockTicksPerSecond(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU time of one process, every thread of it (V8's collector and compiler threads included), in µs; null where /proc is unavailable. */
function processCpuMicros(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: the fields after it start past the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 (utime) and 15 (stime) of proc(5); fields[0] is field 3.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks / clockTicksPerSecond()) * 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time used so far by a server: the process itself and, under a cluster supervisor, each of its
 * workers. Read before and after a load run, the difference divided by the requests answered is the
 * server's CPU per request: what the server costs, whatever share of the cores the load generator
 * beside it happened to take.
 */
export function serverCpuMicros(pid: number): number | null {
  const own = processCpuMicros(pid);
  if (own === null) return null;
  return childPids(pid).reduce((sum, child) => sum + (processCpuMicros(child) ?? 0), own);
}

/** This process's CPUs before any pinning (once pinned, availableParallelism() counts only the CPUs left to it). */
const CPUS_AT_START = availableParallelism();

/**
 * Sets the CPUs every thread of a process may run on, thread by thread: a thread that ends meanwhile
 * (`taskset -a` then fails as a whole) is skipped. Null when done, else why not (no taskset, no /proc).
 */
function setAffinity(pid: number, cpus: string): string | null {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch (err) {
    return `no /proc/${pid}/task: ${String(err)}`;
  }
  let failure: string | null = null;
  let pinned = 0;
  for (const tid of threads) {
    try {
      execFileSync("taskset", ["-cp", cpus, tid], { stdio: ["ignore", "ignore", "pipe"] });
      pinned++;
    } catch (err) {
      if (existsSync(`/proc/${pid}/task/${tid}`)) failure = `taskset -cp ${cpus} ${tid}: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
    }
  }
  return failure ?? (pinned > 0 ? null : `no thread of ${pid} pinned`);
}

/**
 * For the throughput rounds: the server (with its workers) on the first CPU, the load generator
 * (this process) on the others. Sharing the cores freely, where the scheduler put the server's main
 * thread, V8's collector threads and the generator decided a round's figures (one run measured
 * rounds 0.255 / 0.272 / 0.373); pinned, every round and every machine of a kind runs the same
 * arrangement. Returns the undo, or why nothing was pinned (fewer than 2 CPUs, no taskset).
 */
export function pinServerApart(serverPid: number): { undo: () => void } | { notPinned: string } {
  const n = CPUS_AT_START;
  if (n < 2) return { notPinned: "a single CPU" };
  const all = `0-${n - 1}`;
  const server = [serverPid, ...childPids(serverPid)];
  const undo = () => {
    for (const pid of [process.pid, ...server]) setAffinity(pid, all);
  };
  const failure = setAffinity(process.pid, `1-${n - 1}`) ?? server.map((pid) => setAffinity(pid, "0")).find((f) => f !== null) ?? null;
  if (failure) {
    undo();
    return { notPinned: failure };
  }
  return { undo };
}
