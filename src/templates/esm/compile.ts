import path from 'node:path';
import { bundleView, REGISTRY_MODULES, templateFile } from '../bundle-view';
import { browserTemplate, hydrationDefines, type TemplateCompiler } from '../template-compiler';
import { wrapTemplate } from '../template-wrapper';
import { esm } from './info';

/** The modules OC's esm components import, provided by the packager as `oc-server` is. */
const OC_MODULES = {
  'oc-server/client': templateFile('esm', 'oc-server-client.js'),
  'oc-template-esm-compiler/renderer': templateFile('esm', 'oc-renderer.js'),
};
const OC_RENDERER = 'oc-template-esm-compiler/renderer';

const PREACT_DIR = path.join(REGISTRY_MODULES, 'preact');

/**
 * One Preact for the glue and the view, whatever the component installed: two copies break hooks.
 * A view written with React's names (`import { useState } from 'react'`) gets Preact's
 * compatibility layer under them.
 */
const PREACT = {
  jsx: 'automatic',
  jsxImportSource: 'preact',
  alias: {
    ...OC_MODULES,
    preact: PREACT_DIR,
    'preact-render-to-string': path.join(REGISTRY_MODULES, 'preact-render-to-string'),
    'react/jsx-runtime': path.join(PREACT_DIR, 'jsx-runtime'),
    'react-dom/client': path.join(PREACT_DIR, 'compat', 'client.mjs'),
    react: path.join(PREACT_DIR, 'compat'),
    'react-dom': path.join(PREACT_DIR, 'compat'),
  },
} as const;

/** OC's esm form brings its own framework, bundled whole; React, when it uses it, is the registry's React 19. */
const OC_FORM = {
  alias: { ...OC_MODULES, react: path.join(REGISTRY_MODULES, 'react-19'), 'react-dom': path.join(REGISTRY_MODULES, 'react-dom-19') },
} as const;

/**
 * `src/entry.client.tsx` default-exports a function component of the view model: Preact renders
 * it on the server (template.server.js) and hydrates it in the browser (template.js). A view that
 * imports OC's `createComponent` is OC's esm form: it mounts itself in the browser, with the JSX
 * set-up of its own tsconfig, and the server renders only the element it mounts into.
 */
export const compileEsm: TemplateCompiler = async ({ componentDir, src, minify }) => {
  const view = { file: src };
  const entry = templateFile('esm', 'browser-entry.js');
  let browser = await bundleView({ componentDir, entry, view, src, minify, target: 'browser', options: PREACT });
  const mountsItself = browser.imports.includes(OC_RENDERER);
  if (mountsItself) browser = await bundleView({ componentDir, entry, view, src, minify, target: 'browser', options: OC_FORM });
  const template = browserTemplate(browser.code);

  const server = await bundleView({
    componentDir,
    entry: templateFile('esm', mountsItself ? 'server-entry-mount.js' : 'server-entry.js'),
    view: mountsItself ? undefined : view,
    src,
    minify,
    target: 'sandbox',
    options: { ...PREACT, define: hydrationDefines(esm.type, template.key) },
  });
  return { ...template, serverCode: wrapTemplate(server.code, template.key) };
};
