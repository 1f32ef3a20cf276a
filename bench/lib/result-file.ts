import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

export const RESULTS_DIR = "bench/results";

/**
 * The commit measured: HEAD's short hash, "-dirty" when the working tree differs from it; "nogit"
 * outside a repository. Read when the run starts (it builds the server then): HEAD may move during
 * a run of many minutes.
 */
export function measuredCommit(): string {
  try {
    const hash = execFileSync("git", ["rev-parse", "--short=7", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim() !== "";
    return dirty ? `${hash}-dirty` : hash;
  } catch {
    return "nogit";
  }
}

/**
 * A new result file named by the UTC date and the commit measured: `bench/results/<date>-<commit>-<what>.json`
 * (e.g. 2026-11-24-8db8b2f-sqlite-full.json), so results sort by date and each says what code it
 * measured. A second run of the same commit on the same day adds the UTC time (-HHMM) rather than
 * overwriting the first.
 */
export function resultFile(what: string, commit: string, now = new Date()): string {
  const iso = now.toISOString();
  const base = `${iso.slice(0, 10)}-${commit}-${what}`;
  const plain = join(RESULTS_DIR, `${base}.json`);
  return existsSync(plain) ? join(RESULTS_DIR, `${base}-${iso.slice(11, 13)}${iso.slice(14, 16)}.json`) : plain;
}
