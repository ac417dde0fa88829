import { escapeHtml } from '../../pipeline/escape-html';
import type { LastErrorsSight } from '../last-errors-access';
import type { LastError } from '../../tail/last-errors';
import { LAST_ERRORS_PER_COMPONENT } from '../../tail/last-errors';

/**
 * A component page's "Last errors" section: the form asking for a token (a password field, posted
 * to the page itself: a token never travels in a URL), a coded refusal, or the failures the token
 * may see. Every value is escaped: messages are the component's own text.
 */
export function lastErrorsSection(sight: LastErrorsSight): string {
  const body = sight.kind === 'shown' ? shown(sight) : (sight.kind === 'refused' ? refusal(sight.code, sight.message) : '') + tokenForm();
  return `<section aria-labelledby="errors-title"><h2 id="errors-title">Last errors</h2>${body}</section>`;
}

function tokenForm(): string {
  return (
    `<form method="post" class="token" id="errors-form">` +
    `<p class="meta">The last ${LAST_ERRORS_PER_COMPONENT} failures of this component on this replica, for its tenant or the administrator.</p>` +
    `<label for="errors-token">Token <small>one of the tenant's publish tokens, or the administrator's</small></label> ` +
    `<input id="errors-token" name="token" type="password" autocomplete="off" required> <button>Show last errors</button></form>`
  );
}

function refusal(code: string, message: string): string {
  return `<p class="refusal" role="alert" id="errors-refusal"><code>${escapeHtml(code)}</code> ${escapeHtml(message)}</p>`;
}

function shown({ reader, admin, errors }: { reader: string; admin: boolean; errors: LastError[] }): string {
  const meta = `<p class="meta">As ${escapeHtml(reader)} sees them on this replica, newest first (at most ${LAST_ERRORS_PER_COMPONENT}).</p>`;
  if (errors.length === 0) return `${meta}<p class="muted" id="errors-none">No failure recorded.</p>`;
  const tenantHead = admin ? '<th scope="col">Tenant</th>' : '';
  const rows = errors
    .map(
      (error) =>
        `<tr><td><time datetime="${escapeHtml(error.time)}">${escapeHtml(error.time)}</time></td>` +
        (admin ? `<td>${escapeHtml(error.tenant)}</td>` : '') +
        `<td>${escapeHtml(error.version)}</td><td>${error.status}</td><td><code>${escapeHtml(error.code)}</code></td><td>${escapeHtml(error.message)}</td></tr>`,
    )
    .join('');
  return (
    `${meta}<table id="errors"><caption>Failed executions</caption><thead><tr><th scope="col">Time</th>${tenantHead}<th scope="col">Version</th>` +
    `<th scope="col">Status</th><th scope="col">Code</th><th scope="col">Message</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}
