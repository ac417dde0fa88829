import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../../config/config';
import { addDemoPlugins, isDemoFolder } from '../../demo/demo-plugins';
import { createRegistry } from '../../registry';
import { CliError, describeFailure, type Command } from '../command';
import { componentFolder } from '../component-folder';
import { DevBuilds, type DevBuild } from '../dev/dev-builds';
import { registerPreview } from '../dev/preview-route';
import { watchFolder } from '../dev/watch-folder';
import { portOption } from '../port-option';
import { assertPortAvailable, serveUntilSignal } from '../serve-until-signal';

export const devCommand: Command = {
  usage: `Usage: tessera dev <dir…> [--port <port>]

Starts a development registry on 127.0.0.1 serving the given component folders. Each change to a
folder rebuilds its component, served at once as a new build (<version>-dev.<n>): ask without a
version to get the newest. Error bodies carry stack traces. A preview page per component is at
/~preview/<name>, with a form for its parameters; it reloads when a new build is served.
  --port <port>   the port to listen on (default 3030; 0 picks a free one)`,
  async run(argv) {
    const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: { port: { type: 'string', default: '3030' } } });
    if (positionals.length === 0) throw new CliError('tessera dev needs at least one component folder, e.g. "tessera dev ./my-component".');
    const port = portOption(values.port);
    const dirs = positionals.map(componentFolder);

    const config = defaultConfig();
    config.port = port;
    config.host = '127.0.0.1';
    config.development = true;
    config.pollIntervalSeconds = 0;
    // A demo component under development gets the demo's plugins, as the demo's registry offers them.
    if (dirs.some(isDemoFolder)) addDemoPlugins(config);
    // One developer's registry: its builds and preview pages live in the main thread's front.
    config.limits.frontThreads = 1;
    await assertPortAvailable(port, config.host);
    config.storagePath = await mkdtemp(path.join(os.tmpdir(), 'tessera-dev-'));
    const registry = await createRegistry(config);
    registerPreview(registry.app, registry.catalog);
    const builds = new DevBuilds(registry.catalog);

    const report = (dir: string, build: Promise<DevBuild>): Promise<void> =>
      build.then(
        (done) => void process.stdout.write(`Built ${done.name}@${done.version} as ${done.servedAs} (${done.milliseconds} ms)\n`),
        (error: unknown) => void process.stderr.write(`${path.relative(process.cwd(), dir) || '.'}: the build failed; the last good build, if any, is served.\n${describeFailure(error)}\n`),
      );
    const stops: Array<() => void> = [];
    for (const dir of dirs) {
      await report(dir, builds.build(dir));
      stops.push(watchFolder(dir, serially(() => report(dir, builds.build(dir)))));
    }

    const base = await serveUntilSignal(registry, port, async () => {
      for (const stopWatching of stops) stopWatching();
      await rm(config.storagePath, { recursive: true, force: true });
    });
    process.stdout.write(`Tessera dev registry on ${base}\n`);
    for (const name of registry.catalog.names()) process.stdout.write(`  preview ${name}: ${base}~preview/${name}\n`);
    process.stdout.write(`Watching ${dirs.length} folder${dirs.length === 1 ? '' : 's'} for changes; Ctrl-C stops.\n`);
  },
};

/** Runs `task` on each call, one run at a time; calls during a run cause exactly one more run after it. */
function serially(task: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void task().finally(() => {
      running = false;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return run;
}
