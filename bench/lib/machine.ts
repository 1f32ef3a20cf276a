import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

export interface MachineDescription {
  nproc: number;
  cpuModel: string;
  memoryMb: number;
  node: string;
  platform: string;
  /** 1-minute load average when the run started: a busy shared machine makes every figure worse. */
  loadAverageAtStart: number;
}

export function describeMachine(): MachineDescription {
  return {
    nproc: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryMb: Math.round(totalmem() / 1024 / 1024),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };
}
