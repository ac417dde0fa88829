import { escapeHtml } from '../../pipeline/escape-html';

/**
 * The registry's web UI pages share this shell: no external asset (styles and scripts are inline,
 * so the UI works on a closed network), one stylesheet for light and dark through
 * `prefers-color-scheme`, landmarks and visible focus for keyboard users.
 */
export function layoutPage(options: { title: string; baseUrl: string; main: string; script?: string }): string {
  const script = options.script ? `<script>${options.script}</script>` : '';
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="color-scheme" content="light dark"><link rel="icon" href="data:,"><title>${escapeHtml(options.title)}</title><style>${STYLES}</style></head><body>` +
    `<a class="skip" href="#main">Skip to content</a>` +
    `<header class="site"><a href="${escapeHtml(options.baseUrl)}">Tessera</a><span>component registry</span></header>` +
    `<main id="main">${options.main}</main>${script}</body></html>`
  );
}

/** A JSON value for an inline script: it can never close the script element. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/** `active`, `experimental` or `deprecated`, in words (not colour alone); no state reads as active (OC's default). */
export function stateBadge(state: string | undefined): string {
  const known = state === 'experimental' || state === 'deprecated' ? state : 'active';
  return `<span class="badge ${known}">${escapeHtml(state || 'active')}</span>`;
}

/** A publish date (milliseconds or ISO text) as a `<time>` element, or a dash. */
export function dateTime(value: unknown): string {
  const date = typeof value === 'number' || typeof value === 'string' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return '—';
  const iso = date.toISOString();
  return `<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

const STYLES = [
  ':root{color-scheme:light dark;--bg:#ffffff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;--accent:#0a58ad;--on-accent:#ffffff;',
  '--ok-bg:#dafbe1;--ok-fg:#116329;--exp-bg:#fff1c2;--exp-fg:#6f4500;--dep-bg:#ffe1e0;--dep-fg:#a40e26;--bad:#a40e26}',
  '@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#30363d;--card:#161b22;--accent:#6cb6ff;--on-accent:#0d1117;',
  '--ok-bg:#12361f;--ok-fg:#7ee2a0;--exp-bg:#3a2a05;--exp-fg:#f2cc60;--dep-bg:#42161a;--dep-fg:#ffa198;--bad:#ffa198}}',
  '*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  'a{color:var(--accent)}:focus-visible{outline:3px solid var(--accent);outline-offset:2px}',
  '.skip{position:absolute;left:-100vw}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.25rem .5rem}',
  'header.site{display:flex;gap:.75rem;align-items:baseline;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}',
  'header.site a{color:inherit;text-decoration:none;font-weight:700;font-size:1.15rem}header.site span{color:var(--muted)}',
  'main{max-width:64rem;margin:0 auto;padding:1.5rem}h1{margin:.25rem 0 1rem;font-size:1.75rem}h2{font-size:1.2rem;margin:1.75rem 0 .5rem}',
  '.muted,.meta{color:var(--muted)}.meta{font-size:.9rem;margin:.25rem 0 0}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}',
  '.badge{display:inline-block;padding:0 .55rem;border-radius:1rem;font-size:.8rem;font-weight:600;vertical-align:middle;border:1px solid currentColor}',
  '.badge.active{background:var(--ok-bg);color:var(--ok-fg)}.badge.experimental{background:var(--exp-bg);color:var(--exp-fg)}.badge.deprecated{background:var(--dep-bg);color:var(--dep-fg)}',
  '.version{font-family:ui-monospace,monospace;color:var(--muted);font-size:.95rem;margin:0 .35rem}',
  'form.search{display:flex;gap:.5rem;align-items:center;margin-bottom:.5rem}form.search input{flex:1}',
  'input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:.375rem;padding:.35rem .55rem}',
  'button{background:var(--accent);color:var(--on-accent);border-color:var(--accent);font-weight:600;cursor:pointer}',
  '.components{list-style:none;padding:0;margin:0;display:grid;gap:.75rem}.components li{border:1px solid var(--line);border-radius:.5rem;padding:.75rem 1rem;background:var(--card)}',
  '.components h2{display:inline;font-size:1.1rem;margin:0}.components p{margin:.25rem 0 0}.tenant{font-weight:600}',
  '.pager{display:flex;gap:1.5rem;align-items:baseline;justify-content:center;margin:1.25rem 0 0}.pager [aria-disabled]{color:var(--muted)}#results[aria-busy]{opacity:.6}',
  'table{border-collapse:collapse;width:100%;font-size:.95rem}caption{text-align:left;color:var(--muted);padding-bottom:.25rem}',
  'th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:.45rem .5rem}th{font-weight:600}',
  'dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}',
  'ul.versions{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.5rem}ul.versions a{display:inline-block;padding:.1rem .5rem;border:1px solid var(--line);border-radius:.375rem;font-family:ui-monospace,monospace}',
  'ul.versions a[aria-current]{background:var(--accent);color:var(--on-accent);border-color:var(--accent)}',
  '.fields{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.75rem;margin-bottom:.75rem}.fields label{display:flex;flex-direction:column;gap:.2rem;font-weight:600}',
  '.fields small{font-weight:400;color:var(--muted)}',
  'iframe.preview{display:block;width:100%;height:14rem;border:1px dashed var(--line);border-radius:.5rem;margin-top:.5rem}',
  '#preview-status[data-state=failed]{color:var(--bad)}#preview-href{overflow-wrap:anywhere}',
  '.refusal{color:var(--bad)}form.token{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline}form.token p{flex-basis:100%;margin:0}',
].join('');
