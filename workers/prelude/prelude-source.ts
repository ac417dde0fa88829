import type { VersionConstants } from '../../src/sandbox/protocol';
import { MESSAGE_KINDS } from '../isolate-messages';
import { ctxBuilder } from './build-ctx';
import { codedFailures } from './coded-failures';
import { cookieRules } from './cookie-rules';
import { developmentConsole } from './dev-console';
import { hardenIntrinsics } from './harden-intrinsics';
import { headerRules } from './header-rules';
import { hostBridges } from './host-bridges';
import { installPrelude, type PreludeLimits, type PreludeParts } from './install-prelude';
import { boundIntl } from './intl-bounds';
import { captureIntrinsics } from './intrinsics';
import { tailCapture } from './tail-capture';

/**
 * The prelude's parts as the text of one object literal: each function of this folder is injected
 * with `Function.prototype.toString` (the isolate has no module loader, and nothing of the host's
 * realm may reach it), so each must be self-contained. Made once per host process.
 */
const PARTS: string = (() => {
  const parts: PreludeParts = { captureIntrinsics, codedFailures, headerRules, cookieRules, hostBridges, developmentConsole, tailCapture, ctxBuilder, boundIntl };
  return `{${Object.entries(parts)
    .map(([name, part]) => `${name}: (${part.toString()})`)
    .join(', ')}}`;
})();

/**
 * The script a version's context runs before any tenant code: the prelude, given the bridges (`$0`,
 * `$1` of isolated-vm's `evalClosure`), its limits and the version's constants, then the hardening
 * that freezes the built-ins.
 */
export function preludeSource(limits: PreludeLimits, constants: VersionConstants): string {
  return `(${installPrelude.toString()})(globalThis, $0, $1, ${JSON.stringify(limits)}, ${JSON.stringify(constants)}, ${JSON.stringify(MESSAGE_KINDS)}, ${PARTS}); (${hardenIntrinsics.toString()})(globalThis);`;
}
