// Rating updates: openskill's Plackett-Luce against the formula implemented independently in the test helper, the score scaling, and the per-type/per-arena boards.
import { expect } from 'chai';
import type { Competition, CompetitionType, LeaderboardEntry } from '../../src/domain/model.js';
import fc from 'fast-check';
import { ordinal, rate, rating } from 'openskill';
import {
  boardKey, boardRatings, INITIAL_SKILL, linearPlackettLuce, loadOpenSkill, OPENSKILL_FIELD_LIMIT, plackettLuce, ratingScore, updateRatingsTx, type RatingLibrary, type Skill,
} from '../../src/domain/rankings/rating.js';
import { createWorld, type World } from '../../src/world/world.js';
import { independentPL, scoreOf } from '../helpers/rankings.js';

const score = scoreOf;

function expectSkills(actual: Skill[], expected: Skill[]): void {
  expect(actual).to.have.length(expected.length);
  actual.forEach((a, i) => {
    expect(a.mu, `mu[${i}]`).to.be.closeTo(expected[i]!.mu, 1e-9);
    expect(a.sigma, `sigma[${i}]`).to.be.closeTo(expected[i]!.sigma, 1e-9);
  });
}

describe('domain/rating', () => {
  let lib: RatingLibrary;
  before(async () => {
    lib = await loadOpenSkill();
  });
  describe('plackettLuce and ratingScore', () => {
    it('starts every agent at mu 25, sigma 25/3, score 1500', () => {
      expect(INITIAL_SKILL.mu).to.equal(25);
      expect(INITIAL_SKILL.sigma).to.be.closeTo(25 / 3, 1e-12);
      expect(ratingScore(INITIAL_SKILL)).to.be.closeTo(1500, 1e-9);
    });

    it("keeps upstream's own ordinal to the last bit: 24 * ((mu - 3 * sigma) + 62.5), not openskill's operation order", () => {
      expect(INITIAL_SKILL).to.deep.equal(rating());
      const skill = fc.record({ mu: fc.double({ min: -1e6, max: 1e6, noNaN: true }), sigma: fc.double({ min: 0, max: 1e4, noNaN: true }) });
      fc.assert(fc.property(skill, (s) => {
        const t1 = 3 * s.sigma;
        const t2 = s.mu - t1;
        const t3 = t2 + 62.5;
        expect(Object.is(ratingScore(s), 24 * t3)).to.equal(true);
      }), { seed: 20261124, numRuns: 500 });
      // A pair where the two operation orders differ in the last bit: upstream's is kept.
      const s = { mu: 20.137, sigma: 3.0713 };
      expect(ordinal(s, { alpha: 24, target: 1500 })).to.equal(1762.1544);
      expect(ratingScore(s)).to.equal(1762.1544000000001);
    });

    it('reproduces the reference examples for 2 and 3 new agents', async () => {
      const two = plackettLuce([INITIAL_SKILL, INITIAL_SKILL], lib);
      expect(two[0]!.mu).to.be.closeTo(27.635231, 1e-6);
      expect(two[0]!.sigma).to.be.closeTo(8.065506, 1e-6);
      expect(two[1]!.mu).to.be.closeTo(22.364769, 1e-6);
      expect(ratingScore(two[0]!)).to.be.closeTo(1582.5291, 1e-4);
      expect(ratingScore(two[1]!)).to.be.closeTo(1456.0380, 1e-4);
      const three = plackettLuce([INITIAL_SKILL, INITIAL_SKILL, INITIAL_SKILL], lib).map(ratingScore);
      expect(three[0]).to.be.closeTo(1578.1048, 1e-4);
      expect(three[1]).to.be.closeTo(1537.0495, 1e-4);
      expect(three[2]).to.be.closeTo(1433.7700, 1e-4);
    });

    it('matches the independent formula for mixed priors and field sizes', async () => {
      const cases: Skill[][] = [
        [{ mu: 30, sigma: 4 }, { mu: 20, sigma: 7 }],
        [{ mu: 18, sigma: 6 }, { mu: 31, sigma: 2.5 }, { mu: 25, sigma: 25 / 3 }, { mu: 27, sigma: 5 }],
        [INITIAL_SKILL, { mu: 40, sigma: 1 }, { mu: 10, sigma: 9 }, INITIAL_SKILL, { mu: 25.5, sigma: 0.5 }, { mu: 22, sigma: 3 }],
      ];
      for (const priors of cases) expectSkills(plackettLuce(priors, lib), independentPL(priors));
      expect(score({ mu: 30, sigma: 4 })).to.be.closeTo(ratingScore({ mu: 30, sigma: 4 }), 1e-9);
    });

    it('rates fields larger than openskill handles quickly with the same numbers as openskill', async () => {
      const viaOpenskill = (priors: Skill[]) => rate(priors.map((p) => [{ ...p }])).map(([p]) => ({ mu: p!.mu, sigma: p!.sigma }));
      const skill = fc.record({ mu: fc.double({ min: -20, max: 80, noNaN: true }), sigma: fc.double({ min: 0.05, max: 12, noNaN: true }) });
      fc.assert(fc.property(fc.array(skill, { minLength: 1, maxLength: 700, size: 'max' }), (priors) => {
        const expected = viaOpenskill(priors);
        const actual = linearPlackettLuce(priors);
        actual.forEach((a, i) => {
          expect(a.mu, `mu[${i}] of ${priors.length}`).to.be.closeTo(expected[i]!.mu, 1e-9 * Math.max(1, Math.abs(expected[i]!.mu)));
          expect(a.sigma, `sigma[${i}] of ${priors.length}`).to.be.closeTo(expected[i]!.sigma, 1e-9 * expected[i]!.sigma);
        });
      }), { seed: 20261123, numRuns: 25 });
      // A field of fresh agents just over the limit goes the linear way, and agrees with the formula.
      const big = Array.from({ length: OPENSKILL_FIELD_LIMIT + 1 }, () => INITIAL_SKILL);
      expectSkills(plackettLuce(big, lib), independentPL(big));
      expect(plackettLuce(big, lib)).to.deep.equal(linearPlackettLuce(big));
      const small = big.slice(1);
      expect(plackettLuce(small, lib)).to.deep.equal(viaOpenskill(small));
    });

    it('leaves a lone agent unchanged and rates nobody for an empty field', async () => {
      expectSkills(plackettLuce([{ mu: 28, sigma: 3 }], lib), [{ mu: 28, sigma: 3 }]);
      expect(plackettLuce([], lib)).to.deep.equal([]);
    });
  });

  describe('updateRatingsTx', () => {
    let w: World;
    beforeEach(async () => { w = await createWorld({ seed: 7 }); });

    /** A competition row plus a frozen leaderboard in the given finishing order. */
    async function ended(id: string, type: CompetitionType, arenaId: string, order: string[]): Promise<Competition> {
      const comp = { id, type, arenaId, status: 'ending' } as Competition;
      await w.deps.store.transact((tx) => {
        for (const [i, agentId] of order.entries()) {
          const row: LeaderboardEntry = {
            id: `${id}:${agentId}`, competitionId: id, agentId, rank: i + 1, score: 100 - i, pnl: 0, startingValue: 100,
            totalAgents: order.length, createdAt: 0,
          };
          tx.insert('leaderboards', row);
        }
        updateRatingsTx(w.deps, tx, comp, lib);
      });
      return comp;
    }
    const board = (key: string) => w.deps.store.read((tx) => boardRatings(tx, key));

    it('updates the type and the arena board in final-rank order, carrying ratings across competitions', async () => {
      await ended('c1', 'perpetual_futures', 'default-perps-arena', ['a', 'b', 'c']);
      await ended('c2', 'perpetual_futures', 'other-arena', ['c', 'b']);
      const [a1, b1, c1] = independentPL([INITIAL_SKILL, INITIAL_SKILL, INITIAL_SKILL]);
      const [c2, b2] = independentPL([c1!, b1!]);
      const global = await board(boardKey({ type: 'perpetual_futures' }));
      expect(global.map((r) => r.agentId)).to.deep.equal(['a', 'c', 'b']);
      const byAgent = new Map(global.map((r) => [r.agentId, r]));
      expectSkills(['a', 'b', 'c'].map((id) => byAgent.get(id)!), [a1!, b2!, c2!]);
      expect(byAgent.get('c')!.ordinal).to.be.closeTo(score(c2!), 1e-9);
      expect(byAgent.get('c')).to.include({ id: 'type:perpetual_futures:c', type: 'perpetual_futures', arenaId: null, competitions: 2, lastCompetitionId: 'c2' });
      // The second arena starts from fresh ratings: its board knows only its own competition.
      const other = await board(boardKey({ arenaId: 'other-arena' }));
      expectSkills(other, independentPL([INITIAL_SKILL, INITIAL_SKILL]));
      expect(other.map((r) => r.agentId)).to.deep.equal(['c', 'b']);
      expect((await board(boardKey({ arenaId: 'default-perps-arena' }))).map((r) => r.ordinal)).to.deep.equal([a1, b1, c1].map((s) => ratingScore(s!)));
      expect(await board(boardKey({ type: 'trading' }))).to.deep.equal([]);
    });

    it('keeps types apart and does nothing without a final leaderboard', async () => {
      await ended('t1', 'trading', 'default-paper-arena', ['x', 'y']);
      await ended('s1', 'sports_prediction', 'default-nfl-game-prediction-arena', ['y', 'x']);
      await ended('none', 'trading', 'default-paper-arena', []);
      const trading = await board(boardKey({ type: 'trading' }));
      const sports = await board(boardKey({ type: 'sports_prediction' }));
      expect(trading.map((r) => r.agentId)).to.deep.equal(['x', 'y']);
      expect(sports.map((r) => r.agentId)).to.deep.equal(['y', 'x']);
      expectSkills(sports, independentPL([INITIAL_SKILL, INITIAL_SKILL]));
      expect(await w.deps.store.read((tx) => tx.count('ratings'))).to.equal(8);
    });
  });
});
