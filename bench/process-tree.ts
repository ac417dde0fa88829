import { readFile } from 'node:fs/promises';

/** A process and all its descendants (Linux: `/proc/<pid>/task/<tid>/children`). */
async function treeOf(pid: number): Promise<number[]> {
  const pids = [pid];
  for (let index = 0; index < pids.length; index++) {
    const children = await readFile(`/proc/${pids[index]}/task/${pids[index]}/children`, 'utf8').catch(() => '');
    for (const child of children.split(' ').filter(Boolean)) pids.push(Number(child));
  }
  return pids;
}

async function statusField(pid: number, field: 'VmRSS' | 'Threads'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const value = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1];
  return value === undefined ? 0 : Number(value) * (field === 'VmRSS' ? 1024 : 1);
}

/** Resident memory of one process, without its descendants (a registry's main process: its fronts and publish threads). */
export const processRss = (pid: number): Promise<number> => statusField(pid, 'VmRSS');

/** Resident and proportional memory of each process of a tree, the root first (its sandbox hosts after). */
export async function processTreeMemory(pid: number): Promise<{ pid: number; rssBytes: number; pssBytes: number }[]> {
  return Promise.all(
    (await treeOf(pid)).map(async (p) => {
      // Pss counts a page shared by several processes (the Node.js binary's) as a share of each.
      const rollup = await readFile(`/proc/${p}/smaps_rollup`, 'utf8').catch(() => '');
      const pss = /^Pss:\s+(\d+)/m.exec(rollup)?.[1];
      return { pid: p, rssBytes: await statusField(p, 'VmRSS'), pssBytes: pss === undefined ? 0 : Number(pss) * 1024 };
    }),
  );
}

/** Resident memory and threads of a process with its sandbox hosts (every descendant), summed. */
export async function processTreeUsage(pid: number): Promise<{ rssBytes: number; threads: number; processes: number }> {
  const pids = await treeOf(pid);
  const [rss, threads] = await Promise.all([Promise.all(pids.map((p) => statusField(p, 'VmRSS'))), Promise.all(pids.map((p) => statusField(p, 'Threads')))]);
  return { rssBytes: rss.reduce((a, b) => a + b, 0), threads: threads.reduce((a, b) => a + b, 0), processes: pids.length };
}

/** Linux reports a process's CPU time in `/proc/<pid>/stat` in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** User and system CPU seconds of one process; 0 once it has ended. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / TICKS_PER_SECOND : 0;
}

/**
 * CPU seconds a process has used, and apart those of its descendants alive now (a registry's
 * sandbox hosts). A descendant that ended between two readings takes its seconds with it.
 */
export async function processTreeCpu(pid: number): Promise<{ own: number; descendants: number }> {
  const [own, ...descendants] = await Promise.all((await treeOf(pid)).map(cpuSeconds));
  return { own: own ?? 0, descendants: descendants.reduce((a, b) => a + b, 0) };
}
