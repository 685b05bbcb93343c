// Test helper: the input files of a small replay whose numbers the tests work out by hand.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const T0 = Date.UTC(2025, 5, 2, 12);
export const SOL = 'So11111111111111111111111111111111111111112';
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** Input files of a small replay whose numbers are worked out by hand in the tests. */
export function inputs(dir: string) {
  const trades = join(dir, 'trades.csv');
  writeFileSync(trades, [
    'timestamp,agent,fromToken,toToken,amount,reason',
    `2025-06-02T12:30:00Z,Bea,${USDC},${SOL},150,"second, at 150"`,
    `2025-06-02T12:00:00Z,Al,${USDC},${SOL},500,first`,
    `2025-06-02T12:40:00Z,Bea,${USDC},${SOL},99999,too big`,
  ].join('\n'));
  const tape = join(dir, 'tape.json');
  writeFileSync(tape, JSON.stringify({ [`svm:${SOL}`]: [['2025-06-02T12:00:00Z', 100], ['2025-06-02T13:00:00Z', 200]] }));
  const flat = join(dir, 'flat.json');
  writeFileSync(flat, JSON.stringify({ tapes: { [`svm:${SOL}`]: [[T0, 100]] } }));
  const balances = join(dir, 'balances.json');
  writeFileSync(balances, JSON.stringify([{ specificChain: 'svm', tokenSymbol: 'usdc', amount: 1000 }]));
  return { trades, tape, flat, balances };
}
