// The command arbitrary of the trading model (weighted towards trading) and the set-up every run starts with.
import fc from 'fast-check';
import {
  AdminParticipation, Advance, CreateComp, End, JoinLeave, Quote, Read, Register, SetPrice, Start, Trade, type AmountSpec, type Cmd,
} from './commands.js';
import { HOLDABLE, TOKEN_NAMES, type TokenName } from './model.js';

const nat = fc.nat({ max: 7 });
const FRACTIONS = [0.001, 0.05, 0.1, 0.2, 0.24, 0.25, 0.3, 0.5, 1, 1.5];
const OF_MAX = [0.5, 0.99, 1, 1.001, 1.2, 1.39];
const LITERALS: (string | number)[] = ['0', '-5', 'abc', '1e-7', '0.000001', '1e400', '12abc', 0.5];

/** The command arbitrary, weighted towards trading. */
export function commandArbitraries(): fc.Arbitrary<Cmd>[] {
  const amount: fc.Arbitrary<AmountSpec> = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...FRACTIONS).map((frac) => ({ frac })) },
    { weight: 3, arbitrary: fc.constantFrom(...OF_MAX).map((ofMax) => ({ ofMax })) },
    { weight: 1, arbitrary: fc.constantFrom(...LITERALS).map((literal) => ({ literal })) },
  );
  // odd: 0 = no reason, 1 = implicit competition, 2 = unknown competition, else a plain trade.
  const trade = fc.tuple(
    nat, nat, fc.constantFrom<TokenName>(...HOLDABLE, 'BONK'), fc.constantFrom<TokenName>(...TOKEN_NAMES), amount,
    fc.integer({ min: 0, max: 14 }), fc.boolean(), fc.integer({ min: 0, max: 5 }),
  ).map(([a, c, from, to, amt, odd, numeric, aim]) => new Trade(a, c, from, to, amt, odd !== 0, odd === 1, odd === 2, numeric, aim !== 0) as Cmd);
  const register = fc.constant(new Register() as Cmd);
  const create = fc.tuple(fc.constantFrom<'allow' | 'disallowAll'>('allow', 'disallowAll'), fc.constantFrom(25, 50, 100), nat,
    fc.option(fc.constantFrom(1_800_000, 7_200_000, 86_400_000), { nil: null, freq: 2 }))
    .map(([t, p, s, e]) => new CreateComp(t, p, s, e) as Cmd);
  const start = fc.tuple(nat, fc.nat({ max: 31 })).map(([c, mask]) => new Start(c, mask) as Cmd);
  const end = nat.map((c) => new End(c) as Cmd);
  const joinLeave = fc.tuple(fc.boolean(), nat, nat, fc.integer({ min: 0, max: 5 })).map(([leave, a, c, o]) => new JoinLeave(leave, a, c, o === 0) as Cmd);
  const admin = fc.tuple(fc.constantFrom<'add' | 'remove' | 'reactivate'>('add', 'remove', 'reactivate'), nat, nat)
    .map(([op, a, c]) => new AdminParticipation(op, a, c) as Cmd);
  const quote = fc.tuple(nat, nat, fc.constantFrom<TokenName>(...HOLDABLE), fc.constantFrom<TokenName>(...TOKEN_NAMES), fc.constantFrom(0.5, 3, 1000))
    .map(([a, c, f, t, x]) => new Quote(a, c, f, t, x) as Cmd);
  const advance = fc.constantFrom(1000, 60_000, 300_000, 300_000, 1_020_000, 3_600_000).map((ms) => new Advance(ms) as Cmd);
  const price = fc.tuple(fc.constantFrom<TokenName>('SOL', 'WETH', 'JUP'), fc.constantFrom(0.5, 1.1, 2)).map(([t, f]) => new SetPrice(t, f) as Cmd);
  const read = fc.tuple(fc.nat({ max: 31 }), nat, nat).map(([w, a, c]) => new Read(w, a, c) as Cmd);
  return [fc.oneof(
    { weight: 2, arbitrary: register }, { weight: 2, arbitrary: create }, { weight: 3, arbitrary: start }, { weight: 1, arbitrary: end },
    { weight: 3, arbitrary: joinLeave }, { weight: 2, arbitrary: admin }, { weight: 14, arbitrary: trade }, { weight: 2, arbitrary: quote }, { weight: 3, arbitrary: advance },
    { weight: 1, arbitrary: price }, { weight: 2, arbitrary: read },
  )];
}

/** Every run starts with two agents trading in one started competition (so most commands apply at once). */
export function prefix(): Cmd[] {
  return [new Register(), new Register(), new CreateComp('allow', 25, 0, null), new Start(0, 0b11)];
}

