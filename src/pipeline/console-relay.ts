/** One line the server logic logged: `console.<level>(…)`, its arguments joined as text. */
export interface ConsoleLine {
  level: string;
  message: string;
}

const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug', 'trace']);

// JSON inside a <script>: escaping <, > and & keeps a logged "</script>" from ending the element.
const scriptJson = (value: string): string => JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The development console (contract, Server options): a script, added to a rendered component by a
 * development registry only, that replays in the browser's console what the server logic logged,
 * each line prefixed with the component it came from.
 */
export function consoleRelayScript(name: string, version: string, lines: ConsoleLine[]): string {
  const source = scriptJson(`[${name}@${version} server]`);
  const calls = lines.map(({ level, message }) => `console.${LEVELS.has(level) ? level : 'log'}(${source},${scriptJson(message)});`);
  return `<script>${calls.join('')}</script>`;
}
