import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type BrowserServer, type LaunchOptions, type Page } from 'playwright-core';

/** Debian's `chromium` (installed by `.ci/run`), or the browser `CHROMIUM_PATH` names. */
const EXECUTABLES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => Boolean(path));

/** Where the suite's shared Chromium listens (set by global-setup.ts for the test files' processes). */
export const SHARED_CHROMIUM = 'CHROMIUM_ENDPOINT';

interface Teardown {
  teardown(fn: () => unknown): void;
}

function launchOptions(): LaunchOptions {
  const executablePath = EXECUTABLES.find((path) => existsSync(path));
  if (!executablePath) throw new Error(`No Chromium found (looked at ${EXECUTABLES.join(', ')}); npm test installs Debian's chromium first (scripts/test-prerequisites.js).`);
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
  return { executablePath, args: ['--no-sandbox'] };
}

/**
 * A headless Chromium for a test file, closed (or left) when it ends: the suite's shared one when
 * `npm test` started it, where the file's pages live in contexts of their own; else its own.
 */
export async function launchChromium(t: Teardown): Promise<Browser> {
  const shared = process.env[SHARED_CHROMIUM];
  const browser = shared ? await chromium.connect(shared) : await chromium.launch(launchOptions());
  t.teardown(() => browser.close());
  return browser;
}

/** A Chromium that test files' processes connect to (its address in `wsEndpoint()`). */
export function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer(launchOptions());
}

/**
 * A page whose uncaught errors fail the test (reported at the end), with the browser's console
 * kept for the failure message.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return { page, pageErrors };
}
