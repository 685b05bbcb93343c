// Shared lists' kept JSON text: the bytes equal JSON.stringify's, over HTTP too, and a changed leaderboard is never answered from an old text.
import { expect } from 'chai';
import { dispatch } from '../../src/http/dispatch.js';
import { shareJson, sharedJsonBytes } from '../../src/http/json-text.js';
import { compileRoutes } from '../../src/http/router.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { MINUTE, setSolPrice, threeAgentCup, type Cup } from '../helpers/competition-reads.js';
import { ADMIN_KEY, rawCall, rawHeader, startTestServer, type TestServer } from '../helpers/server.js';

describe('sharedJsonBytes', () => {
  const rows = () => shareJson([{ rank: 1, agentName: 'Ærø "quoted" \u2028 🚀', value: 1.5e-7, none: null }, { rank: 2, agentName: 'b', value: -0, none: null }]);

  it('gives exactly the bytes of JSON.stringify for a body holding shared lists, members without a JSON form left out', () => {
    const list = rows();
    const body = {
      success: true, 'odd "key"\n': 1, leaderboard: list, skipped: undefined, fn: () => 1, nested: { list, when: new Date(0) },
      again: list, last: 'ü',
    };
    const bytes = sharedJsonBytes(body);
    expect(bytes).to.be.instanceOf(Buffer);
    expect(bytes!.toString('utf8')).to.equal(JSON.stringify(body));
    expect(sharedJsonBytes(body)!.equals(bytes!), 'the kept text gives the same bytes again').to.equal(true);
    expect(sharedJsonBytes({ only: list })!.toString()).to.equal(JSON.stringify({ only: list }));
    expect(sharedJsonBytes({ a: undefined, only: list })!.toString()).to.equal(JSON.stringify({ only: list }));
    // One list in bodies whose other members change: each answer is its own body's text.
    for (const n of [1, 2, 2, 1]) {
      const around = { before: n, only: list, after: 'x'.repeat(n) };
      expect(sharedJsonBytes(around)!.toString()).to.equal(JSON.stringify(around));
    }
  });

  it('returns null when no shared list is at the top level, or when toJSON could change the text', () => {
    const list = rows();
    expect(sharedJsonBytes({ success: true, rows: [{ a: 1 }] })).to.equal(null);
    expect(sharedJsonBytes({ nested: { list } })).to.equal(null);
    expect(sharedJsonBytes([list])).to.equal(null);
    expect(sharedJsonBytes(null)).to.equal(null);
    expect(sharedJsonBytes('text')).to.equal(null);
    expect(sharedJsonBytes({ list, toJSON: () => 'x' })).to.equal(null);
    expect(sharedJsonBytes({ list, date: { toJSON: () => 'x' } })).to.equal(null);
  });

  it('freezes a shared list and its rows, so a kept text cannot go stale', () => {
    const list = rows();
    expect(Object.isFrozen(list)).to.equal(true);
    expect(() => { (list[0] as { rank: number }).rank = 9; }).to.throw(TypeError);
    expect(() => { (list as unknown as unknown[]).push({}); }).to.throw(TypeError);
  });
});

/** GET over a socket: status, content type, length and the raw body text. */
async function rawGet(url: string, key: string): Promise<{ status: number; type: string | undefined; length: string | undefined; text: string }> {
  const a = await rawCall(url, 'GET', '', { authorization: `Bearer ${key}` });
  return { status: Number(a.status.split(' ')[0]), type: rawHeader(a, 'content-type'), length: rawHeader(a, 'content-length'), text: a.body.toString('utf8') };
}

describe('GET /api/competitions/leaderboard sent from the kept text', () => {
  let s: TestServer;
  let cup: Cup;
  const table = compileRoutes(ROUTES);
  before(async () => {
    s = await startTestServer({ admin: { apiKey: ADMIN_KEY }, startTime: '2025-03-01T00:00:00Z' });
    cup = await threeAgentCup(s);
  });
  after(() => s.close());

  /** The server's text and what JSON.stringify makes of the dispatched body, for the same request. */
  async function both(): Promise<{ sent: string; expected: string }> {
    const path = '/api/competitions/leaderboard';
    const r = await rawGet(`${s.url}${path}?competitionId=${cup.cid}`, ADMIN_KEY);
    expect(r.status, r.text).to.equal(200);
    expect(r.type).to.equal('application/json; charset=utf-8');
    expect(Number(r.length)).to.equal(Buffer.byteLength(r.text));
    const d = await dispatch(s.world, table, { method: 'GET', path, headers: { authorization: `Bearer ${ADMIN_KEY}` }, query: { competitionId: cup.cid } });
    return { sent: r.text, expected: JSON.stringify(d.body) };
  }

  it('answers (200) with the bytes Koa would send for the body, with the same content type as any JSON answer', async () => {
    const first = await both();
    expect(first.sent).to.equal(first.expected);
    const again = await both();
    expect(again.sent).to.equal(first.sent);
    const health = await rawGet(`${s.url}/api/health`, ADMIN_KEY);
    expect(health.type).to.equal('application/json; charset=utf-8');
  });

  it('follows a new snapshot round and an agent rename instead of repeating the earlier text', async () => {
    const before = await both();
    const values = (text: string) => (JSON.parse(text) as { leaderboard: { agentName: string; portfolioValue: number }[] }).leaderboard.map((e) => [e.agentName, e.portfolioValue]);
    setSolPrice(s, 400);
    await s.world.advance(5 * MINUTE);
    const moved = await both();
    expect(moved.sent).to.equal(moved.expected);
    expect(values(moved.sent)).to.not.deep.equal(values(before.sent));
    expect(values(moved.sent)[0]).to.deep.equal(['bravo', 20 * 400 + 1000]);
    const renamed = await s.call('PUT', `/api/admin/agents/${cup.b.agentId}`, { key: ADMIN_KEY, body: { name: 'Bravo Renamed' } });
    expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    const after = await both();
    expect(after.sent).to.equal(after.expected);
    expect(values(after.sent)[0]![0]).to.equal('Bravo Renamed');
  });
});
