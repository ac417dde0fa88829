import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultConfig } from '../../config/config';
import { loadConfig } from '../../config/load-config';
import { addDemoPlugins } from '../../demo/demo-plugins';
import { publishDemoComponents } from '../../demo/publish-demo-components';
import { createRegistry } from '../../registry';
import { TesseraError } from '../../errors/errors';
import { CliError, type Command } from '../command';
import { portOption } from '../port-option';
import { assertPortAvailable, serveUntilSignal } from '../serve-until-signal';

export const startCommand: Command = {
  usage: `Usage: tessera start [--config <file>] [--port <port>] [--storage <folder|s3://bucket[/prefix]>] [--with-demo]

Starts the registry on the embedded file-system storage (default ./data, port 3030), or on an
S3-compatible bucket (endpoint and credentials from AWS_ENDPOINT_URL, AWS_REGION,
AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY). SIGTERM drains: /readyz turns 503, in-flight requests
finish, then the process exits 0.
  --config <file>     a JSON configuration file (docs/reference/configuration.md); TESSERA_*
                      environment variables override it, and these options override both
  --port <port>       the port to listen on
  --storage <where>   the storage folder, or s3://bucket[/prefix]
  --with-demo         publish the demo components shipped with Tessera when storage lacks them`,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { config: { type: 'string' }, port: { type: 'string' }, storage: { type: 'string' }, 'with-demo': { type: 'boolean', default: false } },
    });
    const config = loadConfig({ file: values.config, env: process.env, base: { ...defaultConfig(), host: '0.0.0.0' } });
    if (values.port !== undefined) config.port = portOption(values.port);
    if (values.storage !== undefined) config.storagePath = values.storage;
    if (values['with-demo']) addDemoPlugins(config);
    const where = config.storagePath.startsWith('s3://') ? config.storagePath : path.resolve(config.storagePath);
    await assertPortAvailable(config.port, config.host);
    const registry = await createRegistry(config, { logger: true }).catch((error: unknown) => {
      throw explained(error, `The storage at ${where} cannot be read`);
    });
    if (values['with-demo']) {
      try {
        const published = await publishDemoComponents(registry.catalog);
        for (const id of published) registry.app.log.info(`published demo component ${id}`);
      } catch (error) {
        // A demo that cannot be stored must end the start, not leave the sandbox hosts running.
        await registry.close();
        throw explained(error, `The demo components cannot be published to ${where}`);
      }
    }
    const url = await serveUntilSignal(registry, config.port);
    registry.app.log.info(`Tessera registry on ${url}, storage ${where}`);
  },
};

/** A coded failure says what it is already; a system error (a file where a folder should be) is put in context. */
const explained = (error: unknown, context: string): unknown =>
  error instanceof TesseraError ? error : new CliError(`${context}: ${error instanceof Error ? error.message : String(error)}.`);
