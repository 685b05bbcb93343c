// Browser-test helper: Debian's chromium (/usr/bin/chromium) driven by playwright-core, headless, with a fresh profile; screenshots go to test/artifacts/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where the browser tests expect Debian's chromium (`apt-get install -y chromium`). */
export const CHROMIUM = '/usr/bin/chromium';

/** Screenshots for review (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

/** A headless chromium with one page; `close()` also deletes its profile directory. */
export interface BrowserSession { context: BrowserContext; page: Page; close(): Promise<void> }

/**
 * Launches chromium headless at 1280x800. Fails with a clear message when it is not installed:
 * the browser tests are part of `npm test` and are never skipped silently.
 */
export async function launchBrowser(): Promise<BrowserSession> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's chromium at ${CHROMIUM}: run 'apt-get install -y chromium' (.ci/run installs it when absent)`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'compsim-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return {
    context, page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      if (errors.length > 0) throw new Error(`uncaught errors in the page:\n  ${errors.join('\n  ')}`);
    },
  };
}

/** Saves a full-page screenshot as test/artifacts/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
