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

/** Spellings other than the catalogue's own kept for lookups (any mix of cases of any token's address could be asked for). */
const ALIASES_KEPT = 10_000;

/** In-memory catalogue keyed by (chain, lower-cased address). */
export class Catalogue implements TokenCatalogue {
  private readonly byChain = new Map<SpecificChain, CatalogueToken[]>();
  private readonly byKey = new Map<string, CatalogueToken>();
  /** Per chain: address (lower-cased on EVM chains) -> token; looked up with the caller's own string, no key to build. */
  private readonly byAddress = new Map<SpecificChain, Map<string, CatalogueToken>>();
  /** Other spellings of known addresses added to `byAddress` by {@link find}. */
  private aliases = 0;

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
      for (const tok of list) this.byKey.set(key(tok.address, chain), tok);
      this.byAddress.set(chain, new Map(list.map((tok) => [chain === 'svm' ? tok.address : tok.address.toLowerCase(), tok])));
    }
  }

  tokens(chain: SpecificChain): readonly CatalogueToken[] {
    return this.byChain.get(chain) ?? [];
  }

  find(address: string, chain: SpecificChain): CatalogueToken | undefined {
    const byAddress = this.byAddress.get(chain);
    if (byAddress === undefined) return undefined;
    const exact = byAddress.get(address);
    if (exact) return exact;
    let found: CatalogueToken | undefined;
    if (chain !== 'svm') {
      found = byAddress.get(address.toLowerCase());
    } else {
      // Burn addresses match case-insensitively on every chain (upstream compares them lower-cased).
      const burn = this.byKey.get(key(address.toLowerCase(), chain));
      found = burn?.kind === 'burn' ? burn : undefined;
    }
    // Balances keep the spelling a trade gave (checksummed EVM addresses): valuing them looks the same
    // few spellings up over and over, so a found one is kept as an alias, up to a bound.
    if (found !== undefined && this.aliases < ALIASES_KEPT) {
      byAddress.set(address, found);
      this.aliases += 1;
    }
    return found;
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
 * A lookup by {@link key}, remembered per chain and spelling of the address: building the key (a
 * fresh string, lower-cased on EVM chains) and hashing it costs more than the lookup, and valuing
 * portfolios asks for the same few addresses over and over. `resolve` answers a key (null: nothing
 * there); {@link clear} must follow any change to what it reads. Past {@link ALIASES_KEPT}
 * spellings, new ones are resolved each time.
 */
export class SpellingMemo<V> {
  private readonly byChain = new Map<SpecificChain, Map<string, V | null>>();
  private kept = 0;

  constructor(private readonly resolve: (k: string) => V | null) {}

  get(address: string, chain: SpecificChain): V | null {
    let spellings = this.byChain.get(chain);
    if (spellings === undefined) this.byChain.set(chain, (spellings = new Map()));
    const found = spellings.get(address);
    if (found !== undefined) return found;
    const value = this.resolve(key(address, chain));
    if (this.kept < ALIASES_KEPT) {
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
