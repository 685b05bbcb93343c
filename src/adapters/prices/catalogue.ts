// Token catalogue adapter: loads fixtures/tokens.json into per-chain lookups (burn addresses included).
import { readFileSync } from 'node:fs';
import { SPECIFIC_CHAINS, type SpecificChain, type TokenCatalogue, type TokenMeta } from '../../ports/prices.js';

/** One token entry as written in tokens.json (times as ISO strings or a relative age). */
export interface TokenEntry {
  address: string;
  symbol: string;
  name?: string;
  decimals: number;
  kind: TokenMeta['kind'];
  price?: number;
  pairCreatedAt?: string | number | null;
  /** Relative form: the pair is always this many hours old at the quoted instant. */
  pairAgeHours?: number;
  volume24h?: number | null;
  liquidityUsd?: number | null;
  fdv?: number | null;
}

/** The tokens.json document. */
export interface TokensFile {
  nativeSymbols?: Partial<Record<SpecificChain, string>>;
  chains: Partial<Record<SpecificChain, TokenEntry[]>>;
  burn?: { address: string; parent: 'evm' | 'svm'; symbol?: string }[];
}

/** Catalogue row: the port's metadata plus the fixture's default price and relative age. */
export interface CatalogueToken extends TokenMeta {
  defaultPrice: number | null;
  pairAgeHours?: number;
}

/** Path of the shipped catalogue (works from src/ and dist/). */
export const DEFAULT_TOKENS_URL = new URL('../../../fixtures/tokens.json', import.meta.url);

/** Reads and parses a tokens.json file. */
export function readTokensFile(path: string | URL = DEFAULT_TOKENS_URL): TokensFile {
  return JSON.parse(readFileSync(path, 'utf8')) as TokensFile;
}

function toMs(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined) return null;
  const ms = typeof v === 'number' ? v : Date.parse(v);
  if (!Number.isFinite(ms)) throw new Error(`tokens.json: bad pairCreatedAt ${String(v)}`);
  return ms;
}

/** Spellings a {@link SpellingMemo} keeps (any mix of cases of any address could be asked for). */
const SPELLINGS_KEPT = 10_000;

/** In-memory catalogue keyed by (chain, lower-cased address). */
export class Catalogue implements TokenCatalogue {
  private readonly byChain = new Map<SpecificChain, CatalogueToken[]>();
  private readonly byKey = new Map<string, CatalogueToken>();
  /** Every listed address on any chain ({@link addressFamily}). */
  private readonly families = new Set<string>();
  /**
   * Lookups by the caller's own spelling. Balances keep the spelling a trade gave (checksummed EVM
   * addresses), and valuing them asks for the same few spellings over and over.
   */
  private readonly found = new SpellingMemo<CatalogueToken>((address, chain) => {
    const tok = this.byKey.get(key(address, chain));
    if (tok !== undefined || chain !== 'svm') return tok ?? null;
    // Burn addresses match case-insensitively on every chain (upstream compares them lower-cased).
    const burn = this.byKey.get(key(address.toLowerCase(), chain));
    return burn?.kind === 'burn' ? burn : null;
  });

  constructor(file: TokensFile) {
    for (const chain of SPECIFIC_CHAINS) {
      const list: CatalogueToken[] = (file.chains[chain] ?? []).map((e) => {
        if (typeof e.address !== 'string' || typeof e.symbol !== 'string' || !Number.isInteger(e.decimals)) {
          throw new Error(`tokens.json: bad entry on ${chain}: ${JSON.stringify(e)}`);
        }
        const tok: CatalogueToken = {
          address: e.address, symbol: e.symbol, decimals: e.decimals, specificChain: chain, kind: e.kind,
          pairCreatedAt: toMs(e.pairCreatedAt), volume24h: e.volume24h ?? null,
          liquidityUsd: e.liquidityUsd ?? null, fdv: e.fdv ?? null,
          defaultPrice: e.kind === 'stable' ? (e.price ?? 1) : (e.price ?? null),
        };
        if (e.name !== undefined) tok.name = e.name;
        if (e.pairAgeHours !== undefined) tok.pairAgeHours = e.pairAgeHours;
        return tok;
      });
      for (const b of file.burn ?? []) {
        if ((b.parent === 'svm') !== (chain === 'svm')) continue;
        list.push({
          address: b.address, symbol: b.symbol ?? 'BURN', decimals: b.parent === 'svm' ? 9 : 18, specificChain: chain,
          kind: 'burn', pairCreatedAt: null, volume24h: null, liquidityUsd: null, fdv: null, defaultPrice: 0,
        });
      }
      this.byChain.set(chain, list);
      for (const tok of list) {
        this.byKey.set(key(tok.address, chain), tok);
        this.families.add(addressFamily(tok.address));
      }
    }
  }

  tokens(chain: SpecificChain): readonly CatalogueToken[] {
    return this.byChain.get(chain) ?? [];
  }

  find(address: string, chain: SpecificChain): CatalogueToken | undefined {
    return this.found.get(address, chain) ?? undefined;
  }

  /** True when some chain lists `address` (EVM addresses in any case). */
  listsAnywhere(address: string): boolean {
    return this.families.has(addressFamily(address));
  }

  bySymbol(chain: SpecificChain, symbol: string): CatalogueToken | undefined {
    const s = symbol.toLowerCase();
    return this.tokens(chain).find((t) => t.symbol.toLowerCase() === s);
  }
}

/** Map key of a token: chain plus address, lower-cased on EVM chains (Solana addresses are case-sensitive). */
export function key(address: string, chain: SpecificChain): string {
  return `${chain}:${chain === 'svm' ? address : address.toLowerCase()}`;
}

/**
 * An address as every chain of its kind knows it: EVM (`0x`) addresses lower-cased, Solana ones
 * as written. One family is one token address whatever chain lists it.
 */
export function addressFamily(address: string): string {
  return address.startsWith('0x') || address.startsWith('0X') ? address.toLowerCase() : address;
}

/**
 * Lookups of (address, chain) remembered per chain and spelling of the address: resolving one
 * usually means building a key (a fresh string, lower-cased on EVM chains) and hashing it, which
 * costs more than finding the spelling again, and valuing portfolios asks for the same few
 * addresses over and over. `resolve` answers a lookup (null: nothing there); {@link clear} must
 * follow any change to what it reads. Past {@link SPELLINGS_KEPT} spellings (misses included),
 * new ones are resolved each time.
 */
export class SpellingMemo<V> {
  private readonly byChain = new Map<string, Map<string, V | null>>();
  private kept = 0;

  constructor(private readonly resolve: (address: string, chain: SpecificChain) => V | null) {}

  get(address: string, chain: SpecificChain): V | null {
    const found = this.byChain.get(chain)?.get(address);
    if (found !== undefined) return found;
    const value = this.resolve(address, chain);
    // Chains are client text too (an unknown specificChain is passed through): a map is made only for a spelling kept.
    if (this.kept < SPELLINGS_KEPT) {
      let spellings = this.byChain.get(chain);
      if (spellings === undefined) this.byChain.set(chain, (spellings = new Map()));
      spellings.set(address, value);
      this.kept += 1;
    }
    return value;
  }

  clear(): void {
    this.byChain.clear();
    this.kept = 0;
  }
}
