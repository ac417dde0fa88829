import type { BrowserServer } from 'playwright-core';
import { launchChromiumServer, SHARED_CHROMIUM } from '../browser/chromium';

/**
 * Run by Node's runner in its own process, once around the suite (`--test-global-setup` in `npm
 * test`): one headless Chromium for every browser test file, which connects to it and keeps its
 * pages in contexts of its own, rather than each starting a browser (about a third of a second of
 * CPU each). Without Chromium, each browser test fails as it would alone, naming what is missing.
 */
let chromium: BrowserServer | undefined;

export async function globalSetup(): Promise<void> {
  try {
    chromium = await launchChromiumServer();
    process.env[SHARED_CHROMIUM] = chromium.wsEndpoint();
  } catch {
    // each browser test launches its own and reports why it cannot
  }
}

export async function globalTeardown(): Promise<void> {
  await chromium?.close();
}
