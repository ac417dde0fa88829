import type { PackagedDescriptor, ParameterDefinition } from '../../descriptor/descriptor-types';
import { escapeHtml } from '../../pipeline/escape-html';
import { dateTime, layoutPage, scriptJson, stateBadge } from './page-layout';
import { PREVIEW_SCRIPT } from './preview-script';

export interface ComponentPageInput {
  baseUrl: string;
  descriptor: PackagedDescriptor;
  allVersions: readonly string[];
  /** `/oc-client/client.js?v=…`, absolute. */
  clientUrl: string;
  /** When the version is deprecated: shown under its title. */
  deprecation?: { message: string; date: string } | undefined;
  /** The "Last errors" section (last-errors-section.ts). */
  lastErrors: string;
}

/**
 * `GET /:name[/:version]/~info` for a browser: the version's facts, every version, the parameters
 * and a live preview rendered by the browser client in a sandboxed frame, with a form for the
 * parameters (prefilled with each one's example, else its default), and its last errors to its tenant.
 */
export function componentPage({ baseUrl, descriptor, allVersions, clientUrl, deprecation, lastErrors }: ComponentPageInput): string {
  const { name, version, oc } = descriptor;
  const parameters = Object.entries(oc.parameters ?? {});
  const versions = [...allVersions]
    .reverse()
    .map((v) => `<li><a href="${escapeHtml(`${baseUrl}${name}/${v}/~info`)}"${v === version ? ' aria-current="page"' : ''}>${escapeHtml(v)}</a></li>`)
    .join('');
  const main =
    `<nav aria-label="Breadcrumb"><a href="${escapeHtml(baseUrl)}">All components</a></nav>` +
    `<h1>${escapeHtml(name)}<span class="version">${escapeHtml(version)}</span>${stateBadge(deprecation ? 'deprecated' : oc.state)}</h1>` +
    (deprecation ? `<p class="deprecation" role="note"><strong>Deprecated</strong> since ${dateTime(deprecation.date)}: ${escapeHtml(deprecation.message)}</p>` : '') +
    `<p>${escapeHtml(descriptor.description ?? '')}</p>` +
    facts(descriptor) +
    `<section aria-labelledby="versions-title"><h2 id="versions-title">Versions</h2><ul class="versions">${versions}</ul></section>` +
    lastErrors +
    `<section aria-labelledby="parameters-title"><h2 id="parameters-title">Parameters</h2>${parameterTable(parameters)}</section>` +
    `<section aria-labelledby="preview-title"><h2 id="preview-title">Live preview</h2>` +
    `<form id="preview-form"><div class="fields">${parameters.map(([parameter, definition]) => field(parameter, definition)).join('')}</div><button>Render</button></form>` +
    `<p class="meta">Rendered by the browser client from <code id="preview-href"></code></p>` +
    `<p id="preview-status" role="status" aria-live="polite"></p>` +
    `<iframe class="preview" id="preview" sandbox="allow-scripts" title="${escapeHtml(`Preview of ${name} ${version}`)}"></iframe></section>`;
  const config = { baseUrl, name, version, clientUrl };
  return layoutPage({ title: `${name} ${version}: Tessera`, baseUrl, main, script: `${PREVIEW_SCRIPT}(${scriptJson(config)});` });
}

function facts(descriptor: PackagedDescriptor): string {
  const { oc } = descriptor;
  const rows: Array<[string, string]> = [
    ['Publisher', oc.publisher ? escapeHtml(oc.publisher.tenant) : '—'],
    ['Published', dateTime(oc.publisher?.date ?? oc.date)],
    ['Template', `<code>${escapeHtml(oc.files.template.type)}</code>`],
  ];
  if (descriptor.author) rows.push(['Author', escapeHtml(String(descriptor.author))]);
  const repository = typeof descriptor.repository === 'string' ? descriptor.repository : undefined;
  if (repository) rows.push(['Repository', /^https?:\/\//.test(repository) ? `<a href="${escapeHtml(repository)}">${escapeHtml(repository)}</a>` : escapeHtml(repository)]);
  return `<dl class="facts">${rows.map(([term, value]) => `<dt>${term}</dt><dd>${value}</dd>`).join('')}</dl>`;
}

function parameterTable(parameters: Array<[string, ParameterDefinition]>): string {
  if (parameters.length === 0) return '<p class="muted">This component takes no parameters.</p>';
  const json = (value: unknown) => (value === undefined ? '—' : `<code>${escapeHtml(JSON.stringify(value))}</code>`);
  const rows = parameters
    .map(
      ([name, d]) =>
        `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td>${escapeHtml(d.type)}</td><td>${d.mandatory ? 'yes' : 'no'}</td>` +
        `<td>${json(d.default)}</td><td>${d.enum ? d.enum.map((value) => json(value)).join(' ') : '—'}</td>` +
        `<td>${escapeHtml(d.description ?? '')}</td><td>${json(d.example)}</td></tr>`,
    )
    .join('');
  return (
    `<table><caption>What the query string may carry</caption><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Mandatory</th>` +
    `<th scope="col">Default</th><th scope="col">Allowed values</th><th scope="col">Description</th><th scope="col">Example</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

/** One form control per parameter: a list for `enum` and `boolean`, a number box, or a text box. */
function field(name: string, definition: ParameterDefinition): string {
  const initial = definition.example ?? definition.default;
  const value = initial === undefined ? '' : String(initial);
  const id = `parameter-${name}`;
  const required = definition.mandatory ? ' required' : '';
  const hint = `<small>${escapeHtml([definition.type, definition.mandatory ? 'mandatory' : '', definition.description ?? ''].filter(Boolean).join(' · '))}</small>`;
  const choices = definition.enum ?? (definition.type === 'boolean' ? [true, false] : undefined);
  let control: string;
  if (choices) {
    const options = (definition.mandatory ? [] : ['']).concat(choices.map(String));
    control =
      `<select id="${id}" name="${escapeHtml(name)}"${required}>` +
      options.map((option) => `<option value="${escapeHtml(option)}"${option === value ? ' selected' : ''}>${option === '' ? '(not set)' : escapeHtml(option)}</option>`).join('') +
      `</select>`;
  } else {
    const type = definition.type === 'number' ? 'number" step="any' : 'text';
    control = `<input id="${id}" name="${escapeHtml(name)}" type="${type}" value="${escapeHtml(value)}"${required}>`;
  }
  return `<label for="${id}">${escapeHtml(name)}${hint}${control}</label>`;
}
