// Dashboard logic: loads competitions, the selected one's leaderboard, timeline and trades, shows the virtual clock and drives it through /api/sim/clock.
import { BASE, adminKey, call, get, setAdminKey } from '/ui/api.js';
import { PortfolioChart } from '/ui/chart.js';

const $ = (sel) => document.querySelector(sel);

// In one of the server's other worlds (/worlds/<id>/), the links stay in that world.
for (const a of document.querySelectorAll('nav a[href^="/api/"]')) a.setAttribute('href', BASE + a.getAttribute('href'));
if (BASE) $('h1 .sub').textContent = `dashboard · world ${BASE.slice('/worlds/'.length)}`;
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
const pct = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2, signDisplay: 'exceptZero' });
const qty = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 5 });
const STATUSES = ['active', 'ending', 'pending', 'ended'];
const REFRESH_MS = 2000;
const RUN_STEP_MS = 5 * 60_000;

const state = { competitions: [], selected: null, simApi: null, busy: false, running: null };
const chart = new PortfolioChart($('#chart'), $('#chart-empty'));

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function fmtTime(iso) {
  return iso ? iso.replace('T', ' ').slice(0, 16) : '—';
}

function say(text) {
  $('#status-msg').textContent = text;
}

/** Every competition of every status, newest first within a status. */
async function loadCompetitions() {
  const lists = await Promise.all(STATUSES.map((s) => get(`/api/competitions?status=${s}&limit=100&sort=-createdAt`, { auth: true })));
  state.competitions = lists.flatMap((l) => l.competitions);
  if (!state.competitions.some((c) => c.id === state.selected)) {
    const fromHash = new URLSearchParams(location.hash.slice(1)).get('competition');
    state.selected = (state.competitions.find((c) => c.id === fromHash) ?? state.competitions[0])?.id ?? null;
  }
  const body = $('#competitions tbody');
  body.replaceChildren(...state.competitions.map((c) => {
    const tr = document.createElement('tr');
    const name = document.createElement('td');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'link';
    button.textContent = c.name;
    button.setAttribute('aria-pressed', String(c.id === state.selected));
    button.addEventListener('click', () => select(c.id));
    name.append(button);
    tr.append(name, cell(c.status, `badge ${c.status}`), cell(c.type), cell(String(c.registeredParticipants), 'num'), cell(fmtTime(c.endDate)));
    if (c.id === state.selected) tr.className = 'selected';
    return tr;
  }));
  if (state.competitions.length === 0) body.replaceChildren(Object.assign(document.createElement('tr'), { innerHTML: '<td colspan="5">No competitions in this world.</td>' }));
}

async function loadLeaderboard(c) {
  const r = await get(`/api/competitions/${c.id}/agents?limit=100`, { auth: true });
  $('#leaderboard tbody').replaceChildren(...r.agents.map((a) => {
    const tr = document.createElement('tr');
    const who = cell(a.name);
    who.append(Object.assign(document.createElement('span'), { className: 'handle', textContent: `@${a.handle}` }));
    tr.append(cell(String(a.rank), 'num'), who, cell(usd.format(a.portfolioValue), 'num'),
      cell(usd.format(a.pnl), `num ${a.pnl < 0 ? 'down' : a.pnl > 0 ? 'up' : ''}`), cell(`${pct.format(a.pnlPercent)} %`, 'num'));
    return tr;
  }));
  if (r.agents.length === 0) $('#leaderboard tbody').replaceChildren(Object.assign(document.createElement('tr'), { innerHTML: '<td colspan="5">No participants.</td>' }));
}

/**
 * Bucket width (minutes) that keeps the chart at a few hundred points per agent however long the
 * competition has run, and the whole answer under the server's 20,000-point timeline cap.
 */
function bucketFor(c, nowIso) {
  const start = Date.parse(c.startDate ?? c.createdAt);
  const minutes = Math.max(1, (Date.parse(nowIso) - start) / 60_000);
  const perAgent = Math.max(1, Math.min(300, Math.floor(18_000 / Math.max(1, c.registeredParticipants)) - 2));
  return Math.min(1440, Math.max(1, Math.ceil(minutes / perAgent)));
}

async function loadChart(c, nowIso) {
  const r = await get(`/api/competitions/${c.id}/timeline?bucket=${bucketFor(c, nowIso)}`, { auth: true });
  chart.update(r.timeline);
}

async function loadTrades(c) {
  const note = $('#trades-note');
  if (!adminKey()) {
    note.textContent = 'Paste an admin key above to list trades (the trade list needs a key).';
    $('#trades tbody').replaceChildren();
    return;
  }
  const res = await call('GET', `/api/competitions/${c.id}/trades?limit=20`, { auth: true });
  if (res.status !== 200) {
    note.textContent = `Trades unavailable: ${res.body?.error ?? `HTTP ${res.status}`}`;
    $('#trades tbody').replaceChildren();
    return;
  }
  const total = res.body.total;
  note.textContent = total === 0 ? 'No trades yet.' : `${total} trades, newest first${total > 20 ? ' (the 20 newest shown)' : ''}.`;
  $('#trades tbody').replaceChildren(...res.body.trades.map((t) => {
    const tr = document.createElement('tr');
    tr.append(cell(fmtTime(t.timestamp).slice(5)), cell(t.agent?.name ?? t.agentId), cell(`${qty.format(t.fromAmount)} ${t.fromTokenSymbol}`),
      cell(`${qty.format(t.toAmount)} ${t.toTokenSymbol}`), cell(usd.format(t.tradeAmountUsd), 'num'), cell(t.reason));
    return tr;
  }));
}

/** The virtual clock: the sim API's when it answers, else the health endpoint's timestamp (same clock). */
async function loadClock() {
  let now = null;
  if (adminKey()) {
    const r = await call('GET', '/api/sim/clock', { auth: true });
    state.simApi = r.status === 200 ? true : r.status === 404 ? false : state.simApi;
    if (r.status === 200) now = r.body.now;
    else if (r.status === 401 || r.status === 403) say(`Admin key refused: ${r.body?.error ?? r.status}`);
  }
  now ??= (await get('/api/health')).timestamp;
  const t = $('#clock-time');
  t.textContent = fmtTime(now);
  t.dateTime = now;
  // Say why the clock buttons are greyed out, next to them and on each button.
  const why = !adminKey() ? 'The clock buttons need an admin key: paste one above.'
    : state.simApi === false ? 'The clock buttons need the simulation API: start compsim serve with --sim-api.' : '';
  for (const b of document.querySelectorAll('.advance, #run')) {
    b.disabled = why !== '';
    b.title = why || (b.id === 'run' ? 'Advance 5 minutes every second' : `Advance the virtual clock ${b.textContent}`);
  }
  Object.assign($('#clock-note'), { textContent: why, hidden: why === '' });
  return now;
}

/** Reloads everything shown; never two at once. */
async function refresh() {
  if (state.busy) return;
  state.busy = true;
  try {
    const now = await loadClock();
    await loadCompetitions();
    const c = state.competitions.find((x) => x.id === state.selected);
    $('#selected-name').textContent = c ? `: ${c.name}` : '';
    if (c) await Promise.all([loadLeaderboard(c), loadChart(c, now), loadTrades(c)]);
    document.body.dataset.loaded = 'true';
  } catch (err) {
    say(`Refresh failed: ${err.message}`);
  } finally {
    state.busy = false;
  }
}

function select(id) {
  state.selected = id;
  history.replaceState(null, '', `#competition=${id}`);
  void refresh();
}

async function advance(ms) {
  const r = await call('POST', '/api/sim/clock', { auth: true, body: { advanceMs: ms } });
  if (r.status !== 200) {
    say(r.status === 404 ? 'The simulation API is off: start compsim serve with --sim-api.' : `Advance failed: ${r.body?.error ?? r.status}`);
    if (r.status === 404) state.simApi = false;
    return;
  }
  say(`Advanced to ${fmtTime(r.body.now)}; ${Object.values(r.body.ran).reduce((a, b) => a + b, 0)} scheduled jobs ran.`);
  await refresh();
}

function toggleRun() {
  const button = $('#run');
  if (state.running) {
    clearInterval(state.running);
    state.running = null;
  } else {
    state.running = setInterval(() => void advance(RUN_STEP_MS), 1000);
  }
  button.setAttribute('aria-pressed', String(Boolean(state.running)));
  button.textContent = state.running ? 'Stop' : 'Run';
}

const KEY_FORMAT = /^[0-9a-f]{16}_[0-9a-f]{16}$/;

/** Keeps a pasted key only when it has an admin key's format and this server accepts it as one. */
async function useKey(key) {
  if (key === '') {
    setAdminKey('');
    say('Admin key cleared.');
  } else if (!KEY_FORMAT.test(key)) {
    say('Not an admin key: expected 16 lower-case hex digits, "_", 16 more (as compsim serve prints it). Key not set.');
    return;
  } else {
    const res = await fetch(`${BASE}/api/admin/agents?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status !== 200) {
      const body = await res.json().catch(() => null);
      say(`Admin key refused by the server: ${body?.error ?? `HTTP ${res.status}`}. Key not set.`);
      return;
    }
    setAdminKey(key);
    say('Admin key set for this tab.');
  }
  $('#admin-key').value = '';
  state.simApi = null;
  void refresh();
}

$('#key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void useKey($('#admin-key').value.trim());
});
$('#forget-key').addEventListener('click', () => {
  setAdminKey('');
  state.simApi = null;
  say('Admin key forgotten.');
  void refresh();
});
for (const b of document.querySelectorAll('.advance')) b.addEventListener('click', () => void advance(Number(b.dataset.ms)));
$('#run').addEventListener('click', toggleRun);
setInterval(() => {
  if ($('#auto-refresh').checked && !document.hidden) void refresh();
}, REFRESH_MS);
void refresh();
