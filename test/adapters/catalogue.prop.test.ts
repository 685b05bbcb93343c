// Catalogue lookups: EVM addresses in any case, Solana addresses exactly, burn addresses in any case; the same answers however many spellings were asked before.
import { expect } from 'chai';
import fc from 'fast-check';
import { Catalogue, readTokensFile, type CatalogueToken } from '../../src/adapters/prices/catalogue.js';
import { SPECIFIC_CHAINS, type SpecificChain } from '../../src/ports/prices.js';

const file = readTokensFile();

/** The lookup rule, written out: lower-cased on EVM chains, exact on Solana except burn addresses. */
function expected(cat: Catalogue, address: string, chain: SpecificChain): CatalogueToken | undefined {
  const list = cat.tokens(chain);
  if (chain !== 'svm') return list.find((t) => t.address.toLowerCase() === address.toLowerCase());
  return list.find((t) => t.address === address) ?? list.find((t) => t.kind === 'burn' && t.address.toLowerCase() === address.toLowerCase());
}

/** `address` with the case of each letter chosen by `flips`. */
const spell = (address: string, flips: readonly boolean[]) =>
  [...address].map((ch, i) => (flips[i % flips.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');

describe('token catalogue lookups', () => {
  it('find the same token for every spelling, before and after many spellings were looked up', () => {
    const cat = new Catalogue(file);
    const tokens = SPECIFIC_CHAINS.flatMap((chain) => cat.tokens(chain).map((t) => [chain, t.address] as const));
    const lookup = fc.tuple(fc.constantFrom(...tokens), fc.constantFrom(...SPECIFIC_CHAINS), fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }), fc.boolean())
      .map(([[own, address], other, flips, sameChain]) => ({ chain: sameChain ? own : other, address: spell(address, flips) }));
    fc.assert(fc.property(lookup, ({ chain, address }) => {
      const want = expected(cat, address, chain);
      expect(cat.find(address, chain)).to.equal(want);
      // Asked again: now possibly from the spellings the catalogue kept.
      expect(cat.find(address, chain)).to.equal(want);
    }), { seed: 20261123, numRuns: 3000 });
    // Past the bound on kept spellings, lookups still follow the rule.
    const weth = cat.tokens('eth').find((t) => t.symbol === 'WETH')!;
    for (let i = 0; i < 12_000; i++) {
      const flips = Array.from({ length: 14 }, (_, b) => ((i >> b) & 1) === 1);
      const address = spell(weth.address, flips);
      expect(cat.find(address, 'eth'), address).to.equal(weth);
      expect(cat.find(address, 'svm'), address).to.equal(undefined);
    }
  });
});
