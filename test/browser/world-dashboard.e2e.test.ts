// The dashboard and the docs page of a created world (/worlds/{id}/) in headless chromium: they show and call that world, not the default one.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_KEY } from '../helpers/server.js';
import { SERVER_KEY, startHostServer, type HostServer } from '../helpers/worlds.js';
import { launchBrowser, type BrowserSession } from './browser.js';

const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as Record<string, unknown>;

describe('GET /worlds/{id}/ (a world\'s dashboard in chromium)', function () {
  this.timeout(60_000);
  let s: HostServer;
  let b: BrowserSession;
  let worldKey = '';
  before(async () => {
    s = await startHostServer();
    const res = await s.call('POST', '/api/sim/worlds', { key: SERVER_KEY, body: { fixture: DEMO } });
    expect(res.status).to.equal(201);
    worldKey = res.body.adminKey;
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
    await s?.close();
  });

  it("lists the world's competitions, links to its docs, and takes its own admin key", async () => {
    const { page } = b;
    await page.goto(`${s.url}/worlds/w1/`);
    await page.locator('#competitions tbody tr').filter({ hasText: 'Demo Summer Open' }).waitFor();
    expect(await page.locator('h1 .sub').innerText()).to.equal('dashboard · world w1');
    expect(await page.locator('nav a').first().getAttribute('href')).to.equal('/worlds/w1/api/docs');
    // The default world's key is no admin key of this world.
    await page.locator('#admin-key').fill(ADMIN_KEY);
    await page.locator('#admin-key').press('Enter');
    await page.getByText('Admin key refused by the server').waitFor();
    await page.locator('#admin-key').fill(worldKey);
    await page.locator('#admin-key').press('Enter');
    await page.waitForFunction("!document.querySelector('button.advance').disabled");
    expect(await page.evaluate("sessionStorage.getItem('compsim.adminKey/worlds/w1')")).to.equal(worldKey);
  });

  it("shows the world's OpenAPI document in its docs page", async () => {
    const { page } = b;
    const doc = page.waitForResponse((r) => r.url().endsWith('/openapi.json'));
    await page.goto(`${s.url}/worlds/w1/api/docs`);
    expect((await doc).url()).to.equal(`${s.url}/worlds/w1/api/openapi.json`);
    expect(await page.locator('.back a').getAttribute('href')).to.equal('/worlds/w1/');
  });
});
