import t from 'tap';
import { fixture, request, startRegistry } from '../helpers/start-registry';
import { BYSTANDER, bystanderRenders } from './bystander';

const missing = (module: string) => `threw Error: Module "${module}" is not bundled with the component and the registry does not provide it.`;
const STRICT_FUNCTION_PROPERTY = "threw TypeError: 'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them";

/** What every walk from a function handed to the component must find: its own sandbox, nothing of the host. */
const SANDBOX_ONLY = {
  'constructor(return typeof process)': 'undefined',
  'constructor(return typeof require)': 'undefined',
  'constructor(return this) is the sandbox global': 'true',
  'constructor.constructor(return typeof process)': 'undefined',
  'prototype constructor(return typeof global)': 'undefined',
  'is a sandbox Function': 'true',
  caller: STRICT_FUNCTION_PROPERTY,
  arguments: STRICT_FUNCTION_PROPERTY,
};

t.test('the sandbox holds no host authority: no process, require, timers, network, nor any walk to the host', async (t) => {
  const started = await startRegistry(t, [fixture('hostile-ambient-authority'), BYSTANDER], (config) => {
    config.limits.sandboxHosts = 2;
    config.plugins = [{ name: 'probe', description: 'answers a host function among data', func: () => ({ text: 'from the host', fn: () => process }) }];
  });
  const [probe] = await Promise.all([
    request(`${started.url}hostile-ambient-authority`, { headers: { accept: 'application/vnd.oc.unrendered+json' } }),
    bystanderRenders(t, started, 'Concurrent', 'bystander during the probe'),
  ]);
  t.equal(probe.status, 200);
  t.same(probe.body.data, {
    globals: {
      process: 'undefined',
      require: 'undefined',
      module: 'undefined',
      global: 'undefined',
      Buffer: 'undefined',
      setTimeout: 'undefined',
      setInterval: 'undefined',
      setImmediate: 'undefined',
      queueMicrotask: 'undefined',
      fetch: 'undefined',
      XMLHttpRequest: 'undefined',
      WebSocket: 'undefined',
      WebAssembly: 'undefined',
      others: 'console',
    },
    modules: {
      fs: missing('fs'),
      child_process: missing('child_process'),
      'node:net': missing('node:net'),
      'module.require': 'undefined',
      'import(fs)': 'threw Error: Not supported',
    },
    code: {
      'eval(typeof process)': 'undefined',
      'Function(return typeof require)': 'undefined',
      'Function(return this) is the sandbox global': 'true',
    },
    walks: {
      setHeader: SANDBOX_ONLY,
      setCookie: SANDBOX_ONLY,
      setEmptyResponse: SANDBOX_ONLY,
      renderComponent: SANDBOX_ONLY,
      renderComponents: SANDBOX_ONLY,
      'plugins.probe': SANDBOX_ONLY,
    },
    plugin: '{"text":"from the host"}',
    bridgeObjectsReachable: 0,
  });
  await bystanderRenders(t, started, 'After', 'bystander right after the probe');
});
