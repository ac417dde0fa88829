import path from 'node:path';
import type { Plugin } from 'esbuild';
import { bundleView, REGISTRY_MODULES, templateFile } from '../bundle-view';
import { browserTemplate, hydrationDefines, type TemplateCompiler } from '../template-compiler';
import { wrapTemplate } from '../template-wrapper';
import { react } from './info';

/** The modules the page's one React provides (vendor-entry.js sets them on `globalThis.TesseraReact`). */
const PAGE_MODULES = ['react', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom', 'react-dom/client'];

/** In the browser bundle, React's modules are read from the page's copy instead of being bundled. */
const reactFromPage: Plugin = {
  name: 'tessera-react-from-page',
  setup(build) {
    build.onResolve({ filter: /^react(-dom)?(\/|$)/ }, (args) => (PAGE_MODULES.includes(args.path) ? { path: args.path, namespace: 'tessera-react' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'tessera-react' }, (args) => ({ contents: `module.exports = globalThis.TesseraReact[${JSON.stringify(args.path)}];`, loader: 'js' }));
  },
};

/**
 * In the sandbox: the registry's React, and react-dom's string renderer alone. `react-dom/server`
 * also loads the streaming renderer, whose top-level code needs `MessageChannel`, which a
 * sandbox does not have.
 */
const SANDBOX_REACT = {
  react: path.join(REGISTRY_MODULES, 'react-19'),
  'react-dom/server': path.join(REGISTRY_MODULES, 'react-dom-19', 'cjs', 'react-dom-server-legacy.browser.production.js'),
  'react-dom': path.join(REGISTRY_MODULES, 'react-dom-19'),
};

const JSX = { jsx: 'automatic', jsxImportSource: 'react' } as const;

/**
 * The view default-exports a React function component of the view model: react-dom/server renders
 * it in the sandbox (template.server.js), `hydrateRoot` hydrates it in the browser (template.js).
 */
export const compileReact: TemplateCompiler = async ({ componentDir, src, minify }) => {
  const view = { file: src };
  const browser = await bundleView({
    componentDir,
    entry: templateFile('react', 'browser-entry.js'),
    view,
    src,
    minify,
    target: 'browser',
    options: { ...JSX, plugins: [reactFromPage] },
  });
  const template = browserTemplate(browser.code);
  const server = await bundleView({
    componentDir,
    entry: templateFile('react', 'server-entry.js'),
    view,
    src,
    minify,
    target: 'sandbox',
    options: { ...JSX, alias: SANDBOX_REACT, define: hydrationDefines(react.type, template.key) },
  });
  return { ...template, serverCode: wrapTemplate(server.code, template.key) };
};
