import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../../config/config';
import { publishDemoComponents } from '../../demo/publish-demo-components';
import { createRegistry } from '../../registry';
import type { Command } from '../command';

export const startCommand: Command = {
  summary: 'Start the registry',
  usage: `Usage: tessera start [--port <port>] [--storage <folder>] [--with-demo]

Starts the registry on the embedded file-system storage (default ./data, port 3030).
  --with-demo   publish the demo components shipped with Tessera when storage lacks them`,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, storage: { type: 'string' }, 'with-demo': { type: 'boolean', default: false } },
    });
    const config = defaultConfig();
    if (values.port !== undefined) config.port = Number(values.port);
    if (values.storage !== undefined) config.storagePath = values.storage;
    config.host = '0.0.0.0';
    const registry = await createRegistry(config, { logger: true });
    if (values['with-demo']) {
      const published = await publishDemoComponents(registry.storage, registry.catalog);
      for (const id of published) registry.app.log.info(`published demo component ${id}`);
    }
    await registry.listen();
    registry.app.log.info(`Tessera registry on port ${config.port}, storage ${path.resolve(config.storagePath)}`);
    const stop = () => void registry.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
};
