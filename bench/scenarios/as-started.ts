import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { temporaryFolder } from '../bench-storage';
import { CLI, startCliRegistry } from '../cli-registry';
import { installOc } from '../oc/install-oc';
import { OC_GREETING, ocAuthoredCopies } from '../oc/oc-authored-copies';
import { packageOcComponent } from '../oc/package-oc-component';
import { batchProblem, type Scenario, type ThroughputRow } from '../scenario';
import { startServerProcess } from '../server-process';
import type { OcServerOptions } from '../servers/oc-server';
import { compareWithOc, MIXED_VERSIONS, MIXED_VERSIONS_BATCH, OC_SERVER, type Comparison } from './against-oc';

const execFileAsync = promisify(execFile);

const COMPARISONS: Comparison[] = [
  { scenario: 'as-started, GET', request: { method: 'GET', path: `${OC_GREETING}?name=Ada` }, target: 8 },
  { scenario: 'as-started, 4 versions', request: MIXED_VERSIONS_BATCH, target: 8, problem: (text) => batchProblem(MIXED_VERSIONS.length, text) },
];

const NOTE =
  `as-started: the registry as an operator starts it, not through the bench's own server: \`tessera start --config <file>\` typed without Node's flags (bin/tessera.js starts itself again with them, in the same process), over empty storage, then the OC-authored greeting published at 1.0.0, 1.0.1, 1.1.0 and 2.0.0 with \`tessera publish\` (a tenant's token in the configuration), and loaded right after; against a fresh OC registry serving only that greeting, packaged by OC's CLI. GET: \`GET /${OC_GREETING}?name=Ada\` (its latest version); 4 versions: against-oc's batch at four version expressions. Peak RSS: the process spawned and all its descendants.`;

/**
 * What an operator's deployment holds under load: every process `tessera start` leaves (a launcher
 * it spawned once counted 44 MB here, FINDINGS), and the publish thread the publishes started,
 * against an OC registry that serves only the component under load.
 */
export const asStartedScenario: Scenario = {
  name: 'as-started',
  usesSharedRegistry: false,
  async run(env) {
    const install = await installOc().catch((error: Error) => error);
    if (install instanceof Error) return { rows: COMPARISONS.map(({ scenario }) => ({ scenario, skipped: install.message })), notes: [NOTE] };
    const work = await temporaryFolder('as-started');
    try {
      const versions = (await ocAuthoredCopies(work.path)).filter((dir) => path.basename(dir).startsWith(`${OC_GREETING}@`));
      const ocStorage = path.join(work.path, 'oc-storage');
      for (const dir of versions) await packageOcComponent(install, dir, ocStorage);
      const token = randomBytes(16).toString('hex');
      const configFile = path.join(work.path, 'tessera.json');
      const publishTokens = [{ tenant: 'greeters', sha256: createHash('sha256').update(token).digest('hex'), components: [`${OC_GREETING}*`] }];
      await writeFile(configFile, JSON.stringify({ storage: path.join(work.path, 'storage'), publishTokens }));
      const tessera = await startCliRegistry(['--config', configFile, '--port', '0'], []);
      try {
        for (const dir of versions) await execFileAsync(process.execPath, [CLI, 'publish', dir, '--registry', tessera.url, '--token', token]);
        const oc = await startServerProcess(OC_SERVER, { ocPackage: install.ocPackage, storagePath: ocStorage } satisfies OcServerOptions);
        try {
          const rows: ThroughputRow[] = [];
          for (const comparison of COMPARISONS) rows.push(await compareWithOc(env.settings, comparison, tessera, oc));
          return { rows, notes: [NOTE] };
        } finally {
          await oc.stop();
        }
      } finally {
        await tessera.stop();
      }
    } finally {
      await work.remove();
    }
  },
};
