/**
 * `npm run bench`: runs the load scenarios one after another, prints the method and the results,
 * and records them in bench/README.md.
 *
 *   npm run bench -- [--scenarios render,against-oc,as-started,batch-5,nested,limits,memory,lost-isolates,render-esm,render-react,template-memory,cold-paths,catalog-scale,publish-while-rendering,publish-under-attack,render-while-tailing] [--rounds 5] [--duration 3]
 *                    [--warmup 3] [--connections 50] [--load-generator wrk|autocannon] [--remark "text recorded with the results"] [--print-only]
 *
 * The load generator is wrk when it is installed (`apt-get install wrk`), else autocannon.
 */
import { parseArgs } from 'node:util';
import { temporaryFolder } from './bench-storage';
import { packageSharedStorage } from './shared-storage';
import { describeMachine, formatMethod, formatReport } from './format-report';
import type { LoadGeneratorName } from './load-options';
import { recordResults } from './record-results';
import { startRegistryServer, type BenchEnvironment, type BenchSettings, type Scenario, type ScenarioReport } from './scenario';
import { againstOcScenario } from './scenarios/against-oc';
import { asStartedScenario } from './scenarios/as-started';
import { batchScenario } from './scenarios/batch';
import { catalogScaleScenario } from './scenarios/catalog-scale';
import { coldPathsScenario } from './scenarios/cold-paths';
import { limitsScenario } from './scenarios/limits';
import { lostIsolatesScenario } from './scenarios/lost-isolates';
import { memoryScenario } from './scenarios/memory';
import { nestedScenario } from './scenarios/nested';
import { publishUnderAttackScenario } from './scenarios/publish-under-attack';
import { publishWhileRenderingScenario } from './scenarios/publish-while-rendering';
import { renderScenario } from './scenarios/render';
import { renderWhileTailingScenario } from './scenarios/render-while-tailing';
import { renderEsmScenario, renderReactScenario } from './scenarios/render-templates';
import { templateMemoryScenario } from './scenarios/template-memory';
import type { ServerProcess } from './server-process';
import { wrkInstalled } from './wrk-load';

/**
 * In the order they run. The scenarios that use the shared registry leave their versions warm on it:
 * against-oc, whose peak RSS is compared with OC's (which serves only its own loads), runs right after
 * the rendered GET, before the batches of other components warm theirs.
 */
const SCENARIOS: Scenario[] = [
  renderScenario,
  againstOcScenario,
  asStartedScenario,
  batchScenario,
  nestedScenario,
  limitsScenario,
  memoryScenario,
  lostIsolatesScenario,
  renderEsmScenario,
  renderReactScenario,
  templateMemoryScenario,
  coldPathsScenario,
  catalogScaleScenario,
  publishWhileRenderingScenario,
  publishUnderAttackScenario,
  renderWhileTailingScenario,
];

/** An option's number, refused unless it is at least `min` (and whole when asked). */
function numberOption(option: string, text: string, min: number, whole: boolean): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
    throw new Error(`--${option} must be ${whole ? 'a whole number' : 'a number'} of at least ${min}; it is "${text}".`);
  }
  return value;
}

/** The generator asked for, else wrk when installed, else autocannon. */
async function loadGeneratorOption(asked: string | undefined): Promise<LoadGeneratorName> {
  if (asked === undefined) return (await wrkInstalled()) ? 'wrk' : 'autocannon';
  if (asked !== 'wrk' && asked !== 'autocannon') throw new Error(`--load-generator must be wrk or autocannon; it is "${asked}".`);
  if (asked === 'wrk' && !(await wrkInstalled())) throw new Error('--load-generator wrk: wrk is not installed (apt-get install wrk).');
  return asked;
}

async function readOptions(): Promise<{ settings: BenchSettings; scenarios: Scenario[]; remark?: string; record: boolean }> {
  const { values } = parseArgs({
    options: {
      scenarios: { type: 'string', default: SCENARIOS.map((s) => s.name).join(',') },
      rounds: { type: 'string', default: '5' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '50' },
      'load-generator': { type: 'string' },
      remark: { type: 'string' },
      'print-only': { type: 'boolean', default: false },
    },
  });
  const names = values.scenarios.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`Unknown scenarios: ${unknown.join(', ')}. Known: ${SCENARIOS.map((s) => s.name).join(', ')}.`);
  return {
    settings: {
      loadGenerator: await loadGeneratorOption(values['load-generator']),
      durationSeconds: numberOption('duration', values.duration, 1, false),
      rounds: numberOption('rounds', values.rounds, 1, true),
      warmupSeconds: numberOption('warmup', values.warmup, 0, false),
      connections: numberOption('connections', values.connections, 1, true),
    },
    scenarios: SCENARIOS.filter((s) => names.includes(s.name)),
    remark: values.remark,
    record: !values['print-only'],
  };
}

async function main(): Promise<void> {
  const { settings, scenarios, remark, record } = await readOptions();
  const machine = describeMachine();
  console.log(`Tessera benchmarks: ${scenarios.map((s) => s.name).join(', ')}\n\nMethod\n${formatMethod(machine, settings, [])}\n`);

  const storage = await temporaryFolder('storage');
  const copies = await temporaryFolder('oc-authored');
  let shared: Promise<ServerProcess> | undefined;
  const stopShared = async () => {
    const started = shared;
    shared = undefined;
    if (started) await (await started).stop();
  };
  try {
    await packageSharedStorage(storage.path, copies.path);
    const env: BenchEnvironment = {
      settings,
      storagePath: storage.path,
      sharedRegistry: () => (shared ??= startRegistryServer({ storagePath: storage.path })),
    };
    const reports: ScenarioReport[] = [];
    for (const scenario of scenarios) {
      if (!scenario.usesSharedRegistry) await stopShared();
      console.log(`running ${scenario.name}…`);
      const report = await scenario.run(env).catch((error: unknown): ScenarioReport => {
        // One broken scenario is reported in its row; the others still run and are recorded.
        console.error(error);
        process.exitCode = 1;
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        return { rows: [{ scenario: scenario.name, skipped: `failed: ${message}` }], notes: [] };
      });
      for (const row of report.rows) console.log(`  ${row.scenario}: ${row.skipped ? `skipped (${row.skipped})` : `${Math.round(row.result!.requestsPerSecond)} req/s`}`);
      reports.push(report);
    }
    await stopShared();

    const section = formatReport(machine, settings, reports, remark);
    console.log(`\n${section}`);
    if (record) {
      await recordResults(section);
      console.log('Recorded in bench/README.md.');
    }
  } finally {
    await stopShared();
    await storage.remove();
    await copies.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
