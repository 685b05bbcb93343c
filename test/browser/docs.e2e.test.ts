// Swagger UI at /api/docs in headless chromium: the page loads the served document, and "Try it out" on GET /api/health answers 200.
import { expect } from 'chai';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, screenshot, type BrowserSession } from './browser.js';

describe('GET /api/docs (Swagger UI in chromium)', function () {
  this.timeout(60_000);
  let s: TestServer;
  let b: BrowserSession;
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
    await s?.close();
  });

  it('renders every tag of the document and runs "Try it out" on GET /api/health (200)', async () => {
    const { page } = b;
    await page.goto(`${s.url}/api/docs`);
    await page.locator('.information-container .title').filter({ hasText: 'compsim' }).waitFor();
    for (const tag of ['health', 'trade', 'competitions', 'account', 'competition', 'sim']) await page.locator(`#operations-tag-${tag}`).waitFor();
    await page.locator('#operations-tag-health').click();
    const op = page.locator('.opblock-get').filter({ has: page.locator('.opblock-summary-path[data-path="/api/health"]') });
    await op.locator('.opblock-summary-control').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.filter({ hasText: /^\s*200\s*$/ }).waitFor();
    expect((await status.textContent())?.trim()).to.equal('200');
    await op.locator('.live-responses-table .response-col_description pre').filter({ hasText: '"status": "ok"' }).waitFor();
    await screenshot(page, 'docs-try-it-out');
  });
});
