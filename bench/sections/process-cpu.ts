import { readdirSync, readFileSync } from 'node:fs';

// CPU time used by the processes of a load test, by role, from Linux's /proc (utime + stime).
// The load generator, the local gateway and PGlite share this Node process; PostgREST and a real
// PostgreSQL server run beside it. On a 2-core machine they all compete: the split says how much
// of a booking's cost is the system under test and how much is the harness.

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  ticks: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export type CpuSnapshot = Record<string, Proc[]>;

/** Every process /proc lists, or null where there is no /proc (not Linux). */
function processes(): Proc[] | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  return pids.flatMap((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [{ pid: Number(pid), ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) }];
    } catch {
      return []; // ended meanwhile
    }
  });
}

/**
 * The processes of each role now: this process, its PostgREST child, and the PostgreSQL server
 * whose postmaster is `postmasterPid`; null where /proc cannot say.
 */
export function cpuSnapshot(postmasterPid?: number): CpuSnapshot | null {
  const all = processes();
  if (!all) return null;
  return {
    'Node (load generator, gateway, PGlite)': all.filter((p) => p.pid === process.pid),
    PostgREST: all.filter((p) => p.comm === 'postgrest' && p.ppid === process.pid),
    ...(postmasterPid ? { PostgreSQL: all.filter((p) => p.pid === postmasterPid || p.ppid === postmasterPid) } : {}),
  };
}

/**
 * Milliseconds of CPU each role used between two snapshots, per unit of work (a booking). A
 * process started in between counts whole; one that ended in between is lost (PostgREST keeps its
 * pool's connections, so the server's backends live through a run).
 */
export function cpuPerUnit(before: CpuSnapshot, after: CpuSnapshot, units: number): string {
  return Object.entries(after)
    .map(([role, procs]) => {
      const earlier = new Map((before[role] ?? []).map((p) => [p.pid, p.ticks]));
      const ticks = procs.reduce((sum, p) => sum + p.ticks - (earlier.get(p.pid) ?? 0), 0);
      return `${role} ${((ticks * 1000) / TICKS_PER_SECOND / Math.max(units, 1)).toFixed(1)}`;
    })
    .join(' · ');
}

/** Milliseconds of CPU one role used between two snapshots per unit of work, or null where /proc could not say. */
export function cpuMsPerUnit(before: CpuSnapshot, after: CpuSnapshot, units: number, role: string): number | null {
  const procs = after[role];
  if (!procs) return null;
  const earlier = new Map((before[role] ?? []).map((p) => [p.pid, p.ticks]));
  const ticks = procs.reduce((sum, p) => sum + p.ticks - (earlier.get(p.pid) ?? 0), 0);
  return (ticks * 1000) / TICKS_PER_SECOND / Math.max(units, 1);
}
