// `compsim fork`'s files: the trades, the source's trades, leaderboard and timeline (CSV), the price tape, the competition, the starting balances, the world fixture, and the manifest's hashes and counts.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FixtureCompetition, WorldFixture } from '../world/fixture.js';
import { toCsv, type CsvCell } from './csv.js';
import type { ForkModel } from './fork-derive.js';
import type { Fetched } from './fork-read.js';

/** The files of a fork directory (relative names, as the manifest lists them). */
export const FORK_FILES = {
  world: 'world.json', trades: 'trades.csv', prices: 'prices.json', balances: 'balances.json',
  leaderboard: 'leaderboard.csv', timeline: 'timeline.csv', sourceTrades: 'source-trades.csv', competition: 'competition.json',
} as const;

const iso = (ms: number) => new Date(ms).toISOString();
const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** A decimal text that parses back to exactly `x` (no exponent: the API takes plain decimals). */
export function decimal(x: number): string {
  const s = String(x);
  if (!/e/i.test(s)) return s;
  if (Math.abs(x) >= 1e21) return BigInt(x).toString();
  return x.toFixed(100).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

/** The world fixture: seed 1, the start, the tape, the interval, one user per agent, and the competition active with every agent. */
function fixtureOf(m: ForkModel, comp: Record<string, unknown>): WorldFixture & { snapshotIntervalMs: number } {
  const handles = new Set<string>();
  const users = m.agents.map((a, i) => {
    let handle = a.handle && /^[a-z0-9_]{3,15}$/.test(a.handle) && !handles.has(a.handle) ? a.handle : `agent_${i + 1}`;
    while (handles.has(handle)) handle = `${handle.slice(0, 13)}_${i}`;
    handles.add(handle);
    return { walletAddress: `0x${createHash('sha256').update(`fork:${a.id}`).digest('hex').slice(0, 40)}`, agents: [{ name: m.label.get(a.id)!, handle }] };
  });
  const object = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  const fc: FixtureCompetition = {
    name: typeof comp.name === 'string' && comp.name !== '' ? comp.name : 'Forked competition', status: 'active', participants: users.map((u) => u.agents[0]!.handle),
    ...(typeof comp.description === 'string' ? { description: comp.description } : {}),
    ...(m.endDate !== undefined ? { endDate: iso(Math.max(m.endDate, m.end)) } : {}),
    ...(typeof comp.crossChainTradingType === 'string' ? { tradingType: comp.crossChainTradingType as FixtureCompetition['tradingType'] } : {}),
    ...(m.balances ? { paperTradingInitialBalances: m.balances } : {}),
    ...(object(comp.tradingConstraints) ? { tradingConstraints: comp.tradingConstraints as FixtureCompetition['tradingConstraints'] } : {}),
    ...(object(comp.paperTradingConfig) ? { paperTradingConfig: comp.paperTradingConfig as FixtureCompetition['paperTradingConfig'] } : {}),
  };
  return {
    seed: 1, startTime: iso(m.start), prices: { kind: 'tape', tapes: m.derived.tapes }, snapshotIntervalMs: m.intervalMs,
    admin: { username: 'admin', email: 'admin@compsim.local', password: 'compsim-admin' }, users, competitions: [fc],
  };
}

/** Every file's text, by name (`balances.json` only when the source exposes the starting balances). */
function filesOf(m: ForkModel, f: Fetched): Record<string, string> {
  const label = (id: string) => m.label.get(id)!;
  const files: Record<string, string> = {};
  files[FORK_FILES.trades] = toCsv(['timestamp', 'agent', 'fromToken', 'toToken', 'amount', 'reason', 'fromSpecificChain', 'toSpecificChain'],
    m.trades.map((t, i) => [iso(m.derived.times[i]!), label(t.agentId), t.fromToken, t.toToken, decimal(t.fromAmount), m.reasons[i] === '' ? 'fork' : m.reasons[i]!, t.fromSpecificChain || null, t.toSpecificChain || null]));
  files[FORK_FILES.sourceTrades] = toCsv(['id', 'timestamp', 'agentId', 'agent', 'fromToken', 'toToken', 'fromAmount', 'toAmount', 'tradeAmountUsd', 'fromSpecificChain', 'toSpecificChain'],
    m.trades.map((t) => [t.id, iso(t.timestamp), t.agentId, label(t.agentId), t.fromToken, t.toToken, t.fromAmount, t.toAmount, t.tradeAmountUsd, t.fromSpecificChain, t.toSpecificChain]));
  files[FORK_FILES.prices] = `${JSON.stringify({ tapes: m.derived.tapes })}\n`;
  files[FORK_FILES.competition] = `${JSON.stringify({ competition: f.competition, rules: f.rules?.rules ?? null }, null, 2)}\n`;
  if (m.balances) files[FORK_FILES.balances] = `${JSON.stringify(m.balances, null, 2)}\n`;
  const num = (v: unknown): CsvCell => (typeof v === 'number' ? v : null);
  const ranked = [...f.participants].sort((a, b) => (num(a.rank) as number ?? Infinity) - (num(b.rank) as number ?? Infinity));
  files[FORK_FILES.leaderboard] = toCsv(['rank', 'agent', 'agentId', 'handle', 'value', 'active'],
    ranked.map((p) => [num(p.rank), label(p.id), p.id, typeof p.handle === 'string' ? p.handle : null, num(p.portfolioValue) ?? num(p.score), typeof p.active === 'boolean' ? p.active : null]));
  const timelineRows: CsvCell[][] = [];
  for (const a of f.timeline) {
    for (const p of a.timeline) timelineRows.push([p.timestamp ?? p.date ?? '', m.label.get(a.agentId) ?? a.agentName ?? a.agentId, a.agentId, num(p.totalValue)]);
  }
  files[FORK_FILES.timeline] = toCsv(['timestamp', 'agent', 'agentId', 'value'], timelineRows);
  files[FORK_FILES.world] = `${JSON.stringify(fixtureOf(m, f.competition))}\n`;
  return files;
}

/**
 * Writes the fork's files into `out` (fixed names only: nothing the source says chooses a path)
 * and returns each one's `sha256:` hash.
 */
export function writeFork(out: string, m: ForkModel, f: Fetched): Record<string, string> {
  mkdirSync(out, { recursive: true });
  const hashes: Record<string, string> = {};
  for (const [name, text] of Object.entries(filesOf(m, f))) {
    writeFileSync(join(out, name), text);
    hashes[name] = sha256(text);
  }
  return hashes;
}
