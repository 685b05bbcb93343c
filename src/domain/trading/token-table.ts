// Upstream's built-in token tables per era (per chain: key -> address), verbatim: they decide constraint exemptions, starting-balance addresses and rules texts.
import type { SpecificChain } from '../../ports/prices.js';
import type { TokenTableEra } from '../versions.js';

/** One era's table: per chain, key (eth, usdc, usdt, sol, matic, ...) -> address as upstream writes it. */
export type TokenTable = Readonly<Partial<Record<SpecificChain, Readonly<Record<string, string>>>>>;

/**
 * The hosted service's newest configured tokens per chain. Addresses are kept exactly as upstream
 * writes them, because its "is this a built-in token" test is case-sensitive on the address as sent.
 * (Base `usdt` is upstream's entry, kept verbatim.) `bsc` has no entry upstream.
 */
const TABLE_2026_08: TokenTable = {
  eth: {
    eth: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    usdc: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    usdt: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
  },
  polygon: {
    matic: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
    eth: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
    usdc: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    usdt: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  },
  base: {
    eth: '0x4200000000000000000000000000000000000006',
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    usdt: '0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb',
  },
  svm: {
    sol: 'So11111111111111111111111111111111111111112',
    usdc: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
    usdt: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
  },
  arbitrum: {
    eth: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
    usdc: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
    usdt: '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9',
  },
  optimism: {
    eth: '0x4200000000000000000000000000000000000006',
    usdc: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
    usdt: '0x94b008aa00579c1307b0ef2c499ad98a8ce58e58',
  },
  avalanche: { avax: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7', usdc: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E' },
  linea: { eth: '0xe5D7C2a44FfDDf6b295A15c148167daaAf5Cf34f', usdc: '0x176211869cA2b568f2A7D4EE941E073a821EE1ff' },
  zksync: { eth: '0x5AEa5775959fBC2557Cc8789bC1bf90A239D9a91', usdc: '0x1d17CBcF0D6D143135aE902365D2E5e2A16538D4' },
  scroll: { eth: '0x5300000000000000000000000000000000000004', usdc: '0x06eFdBFf2a14a7c8E15944D1F4A48F9F95F663A4' },
  mantle: { mnt: '0x78c1b0c915c4faa5fffa6cabf0219da63d7f4cb8', usdc: '0x09Bc4E0D864854c6aFB6eB9A9cdF58aC190D0dF9' },
};

/**
 * The October-2025 table, identical to the team era's: six chains, bridged USDC on base (USDbC),
 * polygon and optimism (USDC.e; optimism's written all lower-case), no polygon `matic`.
 */
const TABLE_2025_10: TokenTable = {
  eth: TABLE_2026_08.eth,
  polygon: {
    eth: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
    usdc: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
    usdt: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  },
  base: { ...TABLE_2026_08.base, usdc: '0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA' },
  svm: TABLE_2026_08.svm,
  arbitrum: TABLE_2026_08.arbitrum,
  optimism: { ...TABLE_2026_08.optimism, usdc: '0x7f5c764cbc14f9669b88837ca1490cca17c31607' },
};

/** Each era's table (the version rules name which one a world or a team key uses). */
export const TOKEN_TABLES: Readonly<Record<TokenTableEra, TokenTable>> = {
  '2026-08': TABLE_2026_08, '2025-10': TABLE_2025_10, legacy: TABLE_2025_10,
};

/** Per era: every address as written (case-sensitive), and per chain the usdc/usdt lower-cased. */
const INDEX = new Map(Object.entries(TOKEN_TABLES).map(([era, table]) => [era as TokenTableEra, {
  builtin: new Set(Object.values(table).flatMap((t) => Object.values(t ?? {}))),
  stables: new Map(Object.entries(table).map(([chain, t]) => [chain, [t?.usdc, t?.usdt].flatMap((a) => (a ? [a.toLowerCase()] : []))])),
}]));

/** True when `address`, exactly as sent (case-sensitive), is one of the era's table addresses. */
export function isBuiltinToken(address: string, era: TokenTableEra = '2026-08'): boolean {
  return INDEX.get(era)!.builtin.has(address);
}

/** True when `address` is the usdc or usdt of `chain` in the era's table (case-insensitive). */
export function isTableStablecoin(address: string, chain: string, era: TokenTableEra = '2026-08'): boolean {
  const stables = INDEX.get(era)!.stables.get(chain);
  if (stables === undefined) return false;
  // Lower-cased only when the length can match, and once (every trade asks this of its to-token).
  let lower: string | undefined;
  for (const s of stables) if (s.length === address.length && s === (lower ??= address.toLowerCase())) return true;
  return false;
}

/** The address of `key` (usdc, eth, sol, ...) on `chain` in the era's table, if it has one. */
export function tableAddress(era: TokenTableEra, chain: SpecificChain, key: string): string | undefined {
  return TOKEN_TABLES[era][chain]?.[key];
}
