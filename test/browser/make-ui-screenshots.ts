import path from 'node:path';
import { DEMO, REPO_ROOT, startRegistry } from '../helpers/start-registry';
import { launchChromium, openPage } from './chromium';

/**
 * Takes the screenshots of the web UI (README.md, docs/reference/web-ui.md) with the demo components, in the same Chromium the
 * tests use: `npm run build && node dist/test/browser/make-ui-screenshots.js` (writes `docs/*.png`).
 */
async function main(): Promise<void> {
  const teardowns: Array<() => unknown> = [];
  const t = { teardown: (fn: () => unknown) => void teardowns.push(fn) };
  try {
    const demo = ['hello-world', 'legacy-clock', 'price-tag', 'static-banner', 'weather-badge', 'welcome-panel'].map((name) => path.join(DEMO, name));
    const { url } = await startRegistry(t, demo);
    const browser = await launchChromium(t);
    const shots: Array<[string, string, 'light' | 'dark', number]> = [
      ['web-ui-components.png', url, 'light', 640],
      ['web-ui-component-dark.png', `${url}weather-badge/~info`, 'dark', 1180],
    ];
    for (const [file, address, colorScheme, height] of shots) {
      const { page } = await openPage(browser, { viewport: { width: 900, height }, colorScheme });
      await page.goto(address);
      if (address.endsWith('~info')) await page.waitForSelector('#preview-status[data-state="rendered"]');
      await page.screenshot({ path: path.join(REPO_ROOT, 'docs', file) });
      console.log(`docs/${file}`);
    }
  } finally {
    for (const fn of teardowns.reverse()) await fn();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
