// Writes the week of benchmark 3 as a scenario file (100 actors, 200k trade calls, 2016 five-minute steps), to time it through `compsim run`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SOL, USDC } from './lib/arena.js';

const AGENTS = 100;
const ROUNDS = 2016;
const TRADES = 200_000;
const START = '2025-06-02T12:00:00Z';
const STEP_MS = 300_000;

/** The scenario document: one competition ending after 7 days, trades spread evenly between the 5-minute steps. */
export function weekScenario(agents = AGENTS, rounds = ROUNDS, trades = TRADES): Record<string, unknown> {
  const names = Array.from({ length: agents }, (_, i) => `a${i}`);
  const steps: unknown[] = [{
    call: 'POST /api/admin/competition/start', as: 'admin', save: { cup: 'competition' }, expect: { status: 200 },
    body: {
      name: 'Week', agentIds: names.map((n) => `\${${n}.id}`), endDate: new Date(Date.parse(START) + rounds * STEP_MS).toISOString(),
      paperTradingInitialBalances: [{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1e9 }, { specificChain: 'svm', tokenSymbol: 'sol', amount: 1e6 }],
    },
  }];
  let t = 0;
  for (let r = 0; r < rounds; r++) {
    const n = Math.floor(trades / rounds) + (r < trades % rounds ? 1 : 0);
    for (let k = 0; k < n; k++, t++) {
      const buy = Math.floor(t / agents) % 2 === 0;
      steps.push({
        call: 'POST /api/trade/execute', as: names[t % agents],
        body: { competitionId: '${cup.id}', fromToken: buy ? USDC : SOL, toToken: buy ? SOL : USDC, amount: buy ? '15' : '0.1', reason: 'week' },
      });
    }
    steps.push({ advance: '5m' });
  }
  steps.push({ call: 'GET /api/competitions/${cup.id}', expect: { body: { competition: { status: 'ended' } } } });
  return { seed: 5, startTime: START, world: {}, actors: Object.fromEntries(names.map((n) => [n, {}])), steps };
}

const out = process.argv[1] === fileURLToPath(import.meta.url) ? process.argv[2] : undefined;
if (out) {
  writeFileSync(out, JSON.stringify(weekScenario()));
  process.stdout.write(`wrote ${out}\n`);
}
