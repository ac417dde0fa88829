import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Debian's `chromium` (installed by `.ci/run`), or the browser `CHROMIUM_PATH` names. */
const EXECUTABLES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => Boolean(path));

interface Teardown {
  teardown(fn: () => unknown): void;
}

/** One headless Chromium for a test file, closed when it ends. */
export async function launchChromium(t: Teardown): Promise<Browser> {
  const executablePath = EXECUTABLES.find((path) => existsSync(path));
  if (!executablePath) throw new Error(`No Chromium found (looked at ${EXECUTABLES.join(', ')}); .ci/run installs Debian's chromium.`);
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start.
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  t.teardown(() => browser.close());
  return browser;
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
