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

/** Resident memory and threads of a process with its sandbox hosts (every descendant), summed. */
export async function processTreeUsage(pid: number): Promise<{ rssBytes: number; threads: number; processes: number }> {
  const pids = await treeOf(pid);
  const [rss, threads] = await Promise.all([Promise.all(pids.map((p) => statusField(p, 'VmRSS'))), Promise.all(pids.map((p) => statusField(p, 'Threads')))]);
  return { rssBytes: rss.reduce((a, b) => a + b, 0), threads: threads.reduce((a, b) => a + b, 0), processes: pids.length };
}
