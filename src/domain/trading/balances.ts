// Initial balances: symbol -> address resolution, the specificChain derivation quirk, and per-competition resets.
import type { SpecificChain } from '../../ports/prices.js';
import type { WriteTx } from '../../ports/store.js';
import type { Deps } from '../deps.js';
import { DomainError } from '../errors.js';
import type { Balance, Competition, InitialBalance } from '../model.js';
import type { Tables } from '../tables.js';
import { versionRule, type TokenTableEra } from '../versions.js';
import { tableAddress } from './token-table.js';
import { pairKey } from '../data/keys.js';

/** Upstream's scan order when labelling a starting balance with a chain (bsc, unknown upstream, last). */
export const LABEL_ORDER: readonly SpecificChain[] = [
  'eth', 'polygon', 'base', 'svm', 'arbitrum', 'optimism', 'avalanche', 'linea', 'zksync', 'scroll', 'mantle', 'bsc',
];

const NATIVE_KEYS: Partial<Record<SpecificChain, string>> = { polygon: 'matic', bsc: 'bnb', avalanche: 'avax', mantle: 'mnt', svm: 'sol' };

/**
 * Address of `symbol` on `chain`: the era's token table first (so `usdc` on base is USDbC in the
 * October-2025 and team eras), then upstream's key rules on the catalogue: the native key (eth,
 * matic, avax, mnt, sol, bnb) is the wrapped native token, `eth` is WETH; any other catalogue
 * symbol of the chain is accepted too (superset).
 */
export function initialTokenAddress(deps: Deps, chain: SpecificChain, symbol: string, era: TokenTableEra = versionRule(deps, 'tokenTable')): string | undefined {
  const cat = deps.prices.catalogue();
  const k = symbol.toLowerCase();
  const listed = tableAddress(era, chain, k);
  if (listed !== undefined && cat.find(listed, chain) !== undefined) return listed;
  const native = NATIVE_KEYS[chain] ?? 'eth';
  if (k === native) {
    const wrapped = cat.tokens(chain).find((t) => t.kind === 'wrapped');
    if (wrapped) return wrapped.address;
  }
  if (k === 'eth') return cat.bySymbol(chain, 'WETH')?.address;
  return cat.bySymbol(chain, k)?.address;
}

/** Validates a starting-balance list: duplicates and unknown symbols -> 400; amounts rounded to cents. */
export function resolveInitialBalances(deps: Deps, list: InitialBalance[], era?: TokenTableEra): { list: InitialBalance[]; addresses: string[] } {
  const seen = new Set<string>();
  const dups: string[] = [];
  for (const b of list) {
    const k = `${b.specificChain}:${b.tokenSymbol}`;
    if (seen.has(k)) dups.push(k);
    seen.add(k);
  }
  if (dups.length > 0) throw new DomainError('DUPLICATE_INITIAL_BALANCE');
  const addresses = list.map((b) => {
    const a = initialTokenAddress(deps, b.specificChain, b.tokenSymbol, era);
    if (!a) throw new DomainError('UNKNOWN_INITIAL_TOKEN', { symbol: b.tokenSymbol, chain: b.specificChain });
    return a;
  });
  return { list: list.map((b) => ({ ...b, amount: Math.round(b.amount * 100) / 100 })), addresses };
}

/** Upstream labels a starting balance with the first chain (in LABEL_ORDER) whose table has the address. */
export function labelChain(deps: Deps, address: string, fallback: SpecificChain): SpecificChain {
  const cat = deps.prices.catalogue();
  return LABEL_ORDER.find((c) => cat.find(address, c) !== undefined) ?? fallback;
}

/** Deletes an agent's balances in a competition and recreates them from the starting list. */
export function resetBalancesTx(deps: Deps, tx: WriteTx<Tables>, comp: Competition, agentId: string): Balance[] {
  for (const b of tx.find('balances', 'agentCompetition', pairKey(agentId, comp.id))) tx.delete('balances', b.id);
  // A team, or a competition of the team era, gets the team era's addresses (USDbC, USDC.e).
  const teamEra = comp.slippageModel === 'legacy' || tx.get('agents', agentId)?.generation === 'legacy';
  const { addresses } = resolveInitialBalances(deps, comp.initialBalances, teamEra ? 'legacy' : versionRule(deps, 'tokenTable'));
  const now = deps.clock.now();
  const out: Balance[] = [];
  for (const [i, b] of comp.initialBalances.entries()) {
    const address = addresses[i]!;
    out.push(tx.insert('balances', {
      id: tx.nextSeq('balances'), agentId, competitionId: comp.id, tokenAddress: address, amount: b.amount,
      symbol: b.tokenSymbol, specificChain: labelChain(deps, address, b.specificChain), createdAt: now, updatedAt: now,
    }));
  }
  return out;
}
