// The dashboard at / in headless chromium: the demo world's competitions, leaderboard, chart and trades; the clock buttons advance virtual time and everything follows.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorldFixture } from '../../src/world/fixture.js';
import { createAgent } from '../helpers/actors.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.js';
import { launchBrowser, screenshot, type BrowserSession } from './browser.js';

const DEMO = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'worlds', 'demo.json'), 'utf8')) as WorldFixture & { seed: number };
const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

describe('GET / (dashboard in chromium)', function () {
  this.timeout(60_000);
  let s: TestServer;
  let b: BrowserSession;
  before(async () => {
    s = await startTestServer({ fixture: DEMO, seed: DEMO.seed, admin: { ...DEMO.admin, apiKey: ADMIN_KEY } });
    const [max, mean] = s.world.fixture.agents;
    for (const [agent, body] of [[max!, { fromToken: USDC, toToken: SOL, amount: '3000', reason: 'momentum' }], [mean!, { fromToken: SOL, toToken: USDC, amount: '5', reason: 'mean reversion' }]] as const) {
      const res = await s.call('POST', '/api/trade/execute', { key: agent.apiKey, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
    await s?.close();
  });

  const text = (sel: string) => b.page.locator(sel).innerText();
  const points = async () => Number(await b.page.locator('#chart').getAttribute('data-points'));

  it("shows the demo world's competitions, leaderboard and chart without a key", async () => {
    const { page } = b;
    await page.goto(`${s.url}/`);
    await page.locator('#competitions tbody tr').filter({ hasText: 'Demo Summer Open' }).waitFor();
    expect((await text('#competitions tbody')).toLowerCase()).to.include('demo spring cup').and.include('active').and.include('pending');
    await page.locator('#leaderboard tbody tr').nth(2).waitFor();
    const board = await text('#leaderboard tbody');
    for (const name of ['Momentum Max', 'Mean Reverter', 'HODL Hannah']) expect(board).to.include(name);
    await page.locator('#chart .uplot canvas').waitFor();
    expect(await points()).to.be.at.least(3);
    expect(await page.locator('#chart').getAttribute('aria-label')).to.match(/^Portfolio value of 3 agents/);
    expect(await text('#trades-note')).to.match(/Paste an admin key/);
    expect(await page.locator('button.advance').first().isDisabled()).to.equal(true);
  });

  it('takes the admin key from the keyboard, lists trades and advances the clock with +1 hour, updating clock, leaderboard and chart', async () => {
    const { page } = b;
    await page.locator('#admin-key').fill(ADMIN_KEY);
    await page.locator('#admin-key').press('Enter');
    await page.waitForFunction("!document.querySelector('button.advance').disabled");
    await page.locator('#trades tbody tr').nth(1).waitFor();
    expect(await text('#trades tbody')).to.include('momentum').and.include('mean reversion');
    expect(await page.evaluate("sessionStorage.getItem('compsim.adminKey')")).to.equal(ADMIN_KEY);

    const clockBefore = await text('#clock-time');
    const boardBefore = await text('#leaderboard tbody');
    const pointsBefore = await points();
    await page.getByRole('button', { name: '+1 hour' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(`document.querySelector('#clock-time').textContent !== ${JSON.stringify(clockBefore)}`);
    expect(await text('#clock-time')).to.equal('2025-06-02 13:00');
    await page.waitForFunction(`Number(document.querySelector('#chart').dataset.points) > ${pointsBefore}`);
    await page.waitForFunction(`document.querySelector('#leaderboard tbody').innerText !== ${JSON.stringify(boardBefore)}`);
    expect(await points()).to.be.greaterThan(pointsBefore);
    expect(await text('#status-msg')).to.match(/^Advanced to 2025-06-02 13:00/);
    await screenshot(page, 'dashboard-1280x800');
  });

  it('stays readable on a narrow window: no sideways page scroll, every panel visible', async () => {
    const { page } = b;
    await page.setViewportSize({ width: 390, height: 800 });
    await page.waitForFunction("document.querySelector('#chart canvas').getBoundingClientRect().width <= 390");
    expect(await page.evaluate('document.documentElement.scrollWidth')).to.be.at.most(390);
    for (const sel of ['#controls-h', '#competitions-h', '#leaderboard-h', '#chart-h', '#trades-h']) expect(await page.locator(sel).isVisible(), sel).to.equal(true);
    await screenshot(page, 'dashboard-narrow');
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

describe('GET / (dashboard in chromium): first-hour rough edges', function () {
  this.timeout(60_000);
  let s: TestServer;
  let b: BrowserSession;
  let snapshotAt: number;
  before(async () => {
    // No --sim-api, and one competition with a single snapshot (taken at its start).
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } }, { simApi: false });
    const solo = await createAgent(s, ADMIN_KEY, 'Solo');
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'One Snapshot Cup', agentIds: [solo.agentId] } });
    expect(start.status, JSON.stringify(start.body)).to.equal(200);
    snapshotAt = s.world.deps.clock.now() / 1000;
    b = await launchBrowser();
    await b.page.goto(`${s.url}/`);
    await b.page.locator('#chart .uplot canvas').waitFor();
  });
  after(async () => {
    await b?.close();
    await s?.close();
  });
  const text = (sel: string) => b.page.locator(sel).innerText();
  const submitKey = async (key: string) => {
    await b.page.locator('#admin-key').fill(key);
    await b.page.locator('#admin-key').press('Enter');
  };

  it('shows one snapshot in the middle of a one-hour window, not across years', async () => {
    expect(Number(await b.page.locator('#chart').getAttribute('data-points'))).to.equal(1);
    const min = Number(await b.page.locator('#chart').getAttribute('data-x-min'));
    const max = Number(await b.page.locator('#chart').getAttribute('data-x-max'));
    expect([min, max]).to.deep.equal([snapshotAt - 1800, snapshotAt + 1800]);
  });

  it('refuses a malformed key and a key the server does not accept, keeping no key', async () => {
    await submitKey('not-a-key');
    await b.page.waitForFunction("document.querySelector('#status-msg').textContent.startsWith('Not an admin key')");
    expect(await text('#status-msg')).to.equal('Not an admin key: expected 16 lower-case hex digits, "_", 16 more (as compsim serve prints it). Key not set.');
    await submitKey('0000000000000000_0000000000000000');
    await b.page.waitForFunction("document.querySelector('#status-msg').textContent.startsWith('Admin key refused')");
    expect(await text('#status-msg')).to.equal('Admin key refused by the server: Invalid admin API key. This key may have been reset or is no longer associated with an active admin account.. Key not set.');
    expect(await b.page.evaluate("sessionStorage.getItem('compsim.adminKey')")).to.equal(null);
    expect(await text('#trades-note')).to.match(/Paste an admin key/);
  });

  it('says why the clock buttons are greyed out: first no key, then no --sim-api', async () => {
    const { page } = b;
    const run = page.locator('#run');
    expect(await run.isDisabled()).to.equal(true);
    expect(await run.getAttribute('title')).to.equal('The clock buttons need an admin key: paste one above.');
    expect(await text('#clock-note')).to.equal('The clock buttons need an admin key: paste one above.');
    await submitKey(ADMIN_KEY);
    await page.waitForFunction("document.querySelector('#clock-note').textContent.includes('--sim-api')");
    expect(await text('#status-msg')).to.equal('Admin key set for this tab.');
    expect(await page.locator('button.advance').first().isDisabled()).to.equal(true);
    expect(await page.locator('button.advance').first().getAttribute('title')).to.equal('The clock buttons need the simulation API: start compsim serve with --sim-api.');
    expect(await page.locator('#clock-note').isVisible()).to.equal(true);
    await screenshot(page, 'dashboard-no-sim-api');
  });
});

describe('GET / (dashboard in chromium): a large competition', function () {
  this.timeout(120_000);
  let s: TestServer;
  let b: BrowserSession;
  before(async () => {
    // 100 agents over a day of 5-minute snapshots: 28,900 snapshots, more than one timeline answer may hold.
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY } });
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await createAgent(s, ADMIN_KEY, `Agent ${i}`)).agentId);
    const start = await s.call('POST', '/api/admin/competition/start', { key: ADMIN_KEY, body: { name: 'Big Cup', agentIds: ids } });
    expect(start.status, JSON.stringify(start.body)).to.equal(200);
    await s.world.advance(24 * 3_600_000);
    b = await launchBrowser();
  });
  after(async () => {
    await b?.close();
    await s?.close();
  });

  it('asks for a bucket whose timeline fits under the server cap, and draws every agent', async () => {
    const { page } = b;
    await page.goto(`${s.url}/`);
    await page.locator('#chart .uplot canvas').waitFor();
    expect(await page.locator('#chart').getAttribute('aria-label')).to.match(/^Portfolio value of 100 agents/);
    expect(Number(await page.locator('#chart').getAttribute('data-points'))).to.be.within(10_000, 20_000);
    expect(await page.locator('#status-msg').innerText()).to.equal('');
  });
});
