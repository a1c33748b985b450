/**
 * CPU readings from Linux /proc, for splitting a benchmark's cost between the server under
 * test, PostgreSQL and the load generator on a shared machine. Elsewhere they read nothing
 * (null or an empty map) and the benchmarks report no split.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** All cores' busy and total jiffies so far (/proc/stat). */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3]! - (fields[4] ?? 0), total };
  } catch {
    return null;
  }
}

/** The process's comm name and its user + system CPU so far in ms, or null once it ended. */
function readStat(pid: number | string): { comm: string; ms: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    // Fields after "(comm) ": state is [0], utime [11], stime [12] (clock ticks, 100 Hz).
    const fields = stat.slice(close + 2).split(' ');
    return {
      comm: stat.slice(stat.indexOf('(') + 1, close),
      ms: (Number(fields[11]) + Number(fields[12])) * 10,
    };
  } catch {
    return null;
  }
}

/** CPU time (ms) so far of one process, e.g. a benchmark's server child. */
export const processCpuMs = (pid: number | undefined): number | null =>
  pid === undefined ? null : (readStat(pid)?.ms ?? null);

/**
 * CPU time (ms) so far of this machine's PostgreSQL processes, by pid (empty when the server
 * runs on another host).
 */
export function postgresCpu(): Map<string, number> {
  const out = new Map<string, number>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return out;
  }
  for (const pid of pids) {
    const stat = readStat(pid);
    if (stat?.comm === 'postgres') out.set(pid, stat.ms);
  }
  return out;
}

/** PostgreSQL CPU (ms) between two readings; backends that started meanwhile count whole. */
export const cpuSince = (before: Map<string, number>, after: Map<string, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
