// The fast-check commands of the trading model: register, create/start/end competitions, join, leave, admin participation, trade (valid and invalid), quote, read, prices and the clock.
import fc from 'fast-check';
import type { Json } from '../../src/harness/types.js';
import {
  actorWallet, checkBalances, expectUnchanged, InvariantError, send, sim, sweep, type Real, type Touched,
} from './harness.js';
import {
  advanceModel, applyTrade, endNow, HOLDABLE, INITIAL_SETS, predictTrade, priceOf, register, regOf, slippageBounds, snapshotAll,
  startingRows, tokenName, TOKENS, valueOf, type MAgent, type MComp, type Model, type TokenName, type TradeSpec,
} from './model.js';

/** Most agents / competitions a run creates. */
const MAX_AGENTS = 5;
const MAX_COMPS = 3;
/** Every this many commands the sweep checks everything, not just what the command touched. */
const FULL_EVERY = 5;
/** A competition id nobody has. */
const UNKNOWN_COMP = '00000000-0000-4000-8000-00000000c0de';

const iso = (ms: number) => new Date(ms).toISOString();
const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;
const none = (): Touched => ({ agents: new Set(), comps: new Set(), all: false });
const touch = (agents: string[], comps: string[]): Touched => ({ agents: new Set(agents), comps: new Set(comps), all: false });
export const everything = (): Touched => ({ agents: new Set(), comps: new Set(), all: true });

/** A model command. */
export type Cmd = fc.AsyncCommand<Model, Real, false>;

/** A command: its own request(s), then the invariant sweep. */
abstract class Base implements Cmd {
  abstract check(m: Readonly<Model>): boolean;
  protected abstract act(m: Model, r: Real): Promise<Touched>;
  abstract toString(): string;
  async run(m: Model, r: Real): Promise<void> {
    m.step += 1;
    r.fig.commands += 1;
    const t = await this.act(m, r);
    await sweep(m, r, m.step % FULL_EVERY === 0 ? everything() : t);
  }
}

export class Register extends Base {
  check = (m: Readonly<Model>) => m.agents.length < MAX_AGENTS;
  toString = () => 'register';
  protected async act(m: Model, r: Real): Promise<Touched> {
    const name = `a${m.agents.length + 1}`;
    const res = await send(r, {
      method: 'POST', path: '/api/admin/users', as: 'admin', body: { walletAddress: actorWallet(name), agentName: name },
      expect: { status: 201, body: { agent: { name, status: 'active' } } }, actor: { name, key: 'agent.apiKey', id: 'agent.id', userId: 'user.id' },
    }, true);
    const body = res.body as { agent: { id: string; apiKey: string }; user: { id: string } };
    const agent: MAgent = { name, id: body.agent.id, key: body.agent.apiKey, userId: body.user.id };
    r.rec.name(agent.id, `\${${name}.id}`);
    r.rec.name(agent.userId, `\${${name}.userId}`);
    m.agents.push(agent);
    return touch([agent.id], []);
  }
}

export class CreateComp extends Base {
  constructor(readonly tradingType: 'allow' | 'disallowAll', readonly maxPct: number, readonly set: number, readonly endAfterMs: number | null) {
    super();
  }
  check = (m: Readonly<Model>) => m.comps.length < MAX_COMPS;
  toString = () => `create(${this.tradingType}, ${this.maxPct}%, set ${this.set}, end ${this.endAfterMs ?? 'none'})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const name = `c${m.comps.length + 1}`;
    const initial = pick(INITIAL_SETS, this.set);
    const endDate = this.endAfterMs === null ? null : m.now + this.endAfterMs;
    const res = await send(r, {
      method: 'POST', path: '/api/admin/competition/create', as: 'admin',
      body: {
        name: `Cup ${name}`, tradingType: this.tradingType, paperTradingConfig: { maxTradePercentage: this.maxPct },
        paperTradingInitialBalances: initial.map(({ specificChain, tokenSymbol, amount }) => ({ specificChain, tokenSymbol, amount })),
        ...(endDate !== null ? { endDate: iso(endDate) } : {}),
      },
      expect: { status: 201, body: { competition: { status: 'pending' } } }, save: { [name]: 'competition' },
    }, true);
    const id = (res.body as { competition: { id: string } }).competition.id;
    r.rec.name(id, `\${${name}.id}`);
    m.comps.push({
      name, id, status: 'pending', tradingType: this.tradingType, maxPct: this.maxPct, initial, endDate, startDate: null,
      lastSnapshotAt: null, regs: [], balances: new Map(), latest: new Map(), first: new Map(), frozen: null, trades: [],
    });
    return touch([], [id]);
  }
}

export class Start extends Base {
  constructor(readonly comp: number, readonly mask: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.comps.length > 0;
  toString = () => `start(c${this.comp}, mask ${this.mask})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const comp = pick(m.comps, this.comp);
    const agentIds = m.agents.filter((_, i) => (this.mask >> i) & 1).map((a) => a.id);
    const fresh = agentIds.filter((id) => !regOf(comp, id));
    // Upstream: participants = the given ids ∪ the active registrations; a withdrawn agent named again stays withdrawn.
    const ok = comp.status === 'pending' && (agentIds.length > 0 || comp.regs.some((g) => g.status === 'active'));
    const before = await r.d.mark();
    await send(r, {
      method: 'POST', path: '/api/admin/competition/start', as: 'admin', body: { competitionId: comp.id, agentIds },
      expect: ok ? { status: 200, body: { competition: { id: comp.id, status: 'active' } } } : { status: 400, body: { success: false } },
    }, true);
    if (!ok) {
      await expectUnchanged(r, before, 'start');
      return touch([], [comp.id]);
    }
    for (const id of fresh) register(m, comp, id);
    for (const reg of comp.regs) if (reg.status === 'active') comp.balances.set(reg.agentId, startingRows(comp));
    comp.status = 'active';
    comp.startDate = m.now;
    snapshotAll(m, comp);
    return touch(comp.regs.map((g) => g.agentId), [comp.id]);
  }
}

export class End extends Base {
  constructor(readonly comp: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.comps.length > 0;
  toString = () => `end(c${this.comp})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const comp = pick(m.comps, this.comp);
    const ok = comp.status !== 'pending';
    const before = await r.d.mark();
    await send(r, {
      method: 'POST', path: '/api/admin/competition/end', as: 'admin', body: { competitionId: comp.id },
      expect: ok ? { status: 200, body: { competition: { id: comp.id, status: 'ended' } } } : { status: 400, body: { success: false } },
    }, true);
    if (!ok || comp.status === 'ended') await expectUnchanged(r, before, 'end');
    else endNow(m, comp);
    return touch(comp.regs.map((g) => g.agentId), [comp.id]);
  }
}

/** Join or leave a competition; `other` sends another agent's key for the path's agent (403, nothing changes). */
export class JoinLeave extends Base {
  constructor(readonly leave: boolean, readonly agent: number, readonly comp: number, readonly other: boolean) {
    super();
  }
  check = (m: Readonly<Model>) => m.agents.length > 0 && m.comps.length > 0;
  toString = () => `${this.leave ? 'leave' : 'join'}(a${this.agent}, c${this.comp}${this.other ? ', other key' : ''})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const agent = pick(m.agents, this.agent);
    const comp = pick(m.comps, this.comp);
    const caller = this.other && m.agents.length > 1 ? pick(m.agents, this.agent + 1) : agent;
    const reg = regOf(comp, agent.id);
    let status = 200;
    if (caller !== agent) status = 403;
    else if (!this.leave) status = comp.status !== 'pending' || reg?.status === 'active' ? 403 : 200;
    else status = !reg || comp.status === 'ended' ? 403 : 200;
    const before = await r.d.mark();
    await send(r, {
      method: this.leave ? 'DELETE' : 'POST', path: `/api/competitions/${comp.id}/agents/${agent.id}`, as: caller,
      expect: status === 200 ? { status: 200, body: { success: true } } : { status, body: { success: false } },
    }, true);
    const changes = status === 200 && (this.leave ? reg!.status !== 'withdrawn' : !reg);
    if (!changes) await expectUnchanged(r, before, this.leave ? 'leave' : 'join');
    else if (this.leave) reg!.status = 'withdrawn';
    else register(m, comp, agent.id);
    return touch([agent.id], [comp.id]);
  }
}

/** Admin participation: add (pending only), remove (disqualify) or reactivate (not once ended). */
export class AdminParticipation extends Base {
  constructor(readonly op: 'add' | 'remove' | 'reactivate', readonly agent: number, readonly comp: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.agents.length > 0 && m.comps.length > 0;
  toString = () => `admin ${this.op}(a${this.agent}, c${this.comp})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const agent = pick(m.agents, this.agent);
    const comp = pick(m.comps, this.comp);
    const reg = regOf(comp, agent.id);
    let ok: boolean;
    if (this.op === 'add') ok = !reg && comp.status === 'pending';
    else if (this.op === 'remove') ok = reg !== undefined;
    else ok = comp.status !== 'ended' && reg !== undefined;
    const suffix = this.op === 'add' ? '' : `/${this.op}`;
    const before = await r.d.mark();
    await send(r, {
      method: 'POST', path: `/api/admin/competitions/${comp.id}/agents/${agent.id}${suffix}`, as: 'admin',
      ...(this.op === 'remove' ? { body: { reason: 'model check' } } : {}),
      expect: ok ? { status: 200, body: { success: true } } : { status: 400, body: { success: false } },
    }, true);
    if (!ok) await expectUnchanged(r, before, `admin ${this.op}`);
    else if (this.op === 'add') register(m, comp, agent.id);
    else reg!.status = this.op === 'remove' ? 'disqualified' : 'active';
    return touch([agent.id], [comp.id]);
  }
}

/** How much a trade asks for: a fraction of the from-token balance or of the largest allowed trade, or a literal (often invalid). */
export type AmountSpec = { frac: number } | { ofMax: number } | { literal: string | number };

export class Trade extends Base {
  constructor(
    readonly agent: number, readonly comp: number, readonly from: TokenName, readonly to: TokenName, readonly amount: AmountSpec,
    readonly reason: boolean, readonly implicit: boolean, readonly unknown: boolean, readonly numeric: boolean,
    /** Aim at a competition the agent trades in, and at a token it holds (most trades). */
    readonly aimed: boolean,
  ) {
    super();
  }
  check = (m: Readonly<Model>) => m.agents.length > 0 && m.comps.length > 0;
  toString = () => `trade(a${this.agent}, c${this.comp}, ${this.from}->${this.to}, ${JSON.stringify(this.amount)}${this.aimed ? ', aimed' : ''}${this.reason ? '' : ', no reason'}${this.implicit ? ', implicit' : ''}${this.unknown ? ', unknown comp' : ''})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const agent = pick(m.agents, this.agent);
    const mine = m.comps.filter((c) => c.status === 'active' && regOf(c, agent.id)?.status === 'active');
    const named: MComp | null = this.unknown ? null : pick(this.aimed && mine.length > 0 ? mine : m.comps, this.comp);
    const holding = [...(named?.balances.get(agent.id) ?? [])].filter(([, v]) => v > 0).map(([a]) => tokenName(a));
    const from = this.aimed && holding.length > 0 ? pick(holding, this.agent + this.comp) : this.from;
    const to = this.aimed && this.to === from ? pick(HOLDABLE.filter((t) => t !== from), this.agent) : this.to;
    const held = named?.balances.get(agent.id)?.get(TOKENS[from].address) ?? 0;
    let amount: number | string;
    if ('frac' in this.amount) amount = (held > 0 ? held : 10) * this.amount.frac;
    else if ('ofMax' in this.amount) {
      const value = valueOf(m, named?.balances.get(agent.id));
      const price = priceOf(m, TOKENS[from].address);
      amount = value > 0 && price > 0 ? ((value * (named?.maxPct ?? 25)) / 100 / price) * this.amount.ofMax : 1;
    } else amount = this.amount.literal;
    const spec: TradeSpec = { agent, comp: named, from: from, to: to, amount, reason: this.reason, implicit: this.implicit };
    const outcome = predictTrade(m, spec);
    const body: Record<string, Json> = {
      fromToken: TOKENS[from].address, toToken: TOKENS[to].address,
      amount: typeof amount === 'number' && !this.numeric ? String(amount) : amount,
      ...(this.reason ? { reason: 'model trade' } : {}), ...(this.implicit ? {} : { competitionId: named?.id ?? UNKNOWN_COMP }),
    };
    const before = await r.d.mark();
    const n = m.comps.reduce((s, c) => s + c.trades.length, 0) + 1;
    let expect;
    if (outcome.kind === 'reject') {
      expect = { status: outcome.status, body: { success: false, error: { $type: 'string' }, ...(outcome.rule ? { details: { rule: outcome.rule } } : {}) } };
    } else if (outcome.kind === 'either') {
      expect = { status: [200, 400] };
    } else {
      const toPrice = priceOf(m, TOKENS[to].address);
      const toAmount: Json = outcome.toAmount !== null ? { $approx: outcome.toAmount, $rel: 1e-9, $tol: 1e-12 }
        : (() => {
          const [lo, hi] = slippageBounds(outcome.usd);
          return { $gte: (outcome.usd * (1 - hi)) / toPrice * (1 - 1e-12), $lte: (outcome.usd * (1 - lo)) / toPrice * (1 + 1e-12) };
        })();
      expect = {
        status: 200,
        body: { success: true, transaction: { agentId: agent.id, competitionId: outcome.comp.id, fromAmount: Number.parseFloat(String(amount)), toAmount, tradeAmountUsd: { $approx: outcome.usd, $rel: 1e-12 } } },
      };
    }
    const res = await send(r, {
      method: 'POST', path: '/api/trade/execute', as: agent, body, expect,
      ...(outcome.kind === 'accept' ? { save: { [`t${n}`]: 'transaction.id' } } : {}),
    }, true);
    if (res.status !== 200) {
      await expectUnchanged(r, before, 'trade');
      return touch([agent.id], named ? [named.id] : []);
    }
    const tx = (res.body as { transaction: { id: string; fromAmount: number; toAmount: number } }).transaction;
    const comp = outcome.kind === 'reject' ? null : outcome.comp;
    if (!comp) throw new InvariantError('a trade the model rejects was accepted');
    if (outcome.kind === 'either') r.rec.add({ note: `trade t${n} sat on the maximum-size boundary` });
    r.rec.name(tx.id, `\${t${n}}`);
    const rows = comp.balances.get(agent.id)!;
    const valueBefore = valueOf(m, rows);
    applyTrade(m, comp, agent.id, from, to, tx.fromAmount, tx.toAmount, tx.id, tx.fromAmount * priceOf(m, TOKENS[from].address));
    // Conservation at constant prices: the value drops by exactly the recorded slippage (nothing without
    // slippage; everything sent to a burn address, which destroys value by design).
    const usd = tx.fromAmount * priceOf(m, TOKENS[from].address);
    const drop = usd - tx.toAmount * priceOf(m, TOKENS[to].address);
    if (m.slippage === 'none' && TOKENS[to].price !== 0 && m.fakeBug === 'none' && Math.abs(drop) > 1e-9 * usd) {
      throw new InvariantError(`trade t${n} lost ${drop} USD without slippage`);
    }
    const res2 = await send(r, { method: 'GET', path: '/api/agent/balances', as: agent, query: { competitionId: comp.id }, expect: { status: 200 } }, false);
    const after = ((res2.body as { balances: { tokenAddress: string; amount: number }[] }).balances)
      .reduce((s, b) => s + (b.amount === 0 ? 0 : b.amount * priceOf(m, b.tokenAddress)), 0);
    if (Math.abs(valueBefore - drop - after) > 1e-9 * Math.max(valueBefore, 1)) {
      await checkBalances(m, r, comp, agent.id);
      throw new InvariantError(`portfolio value after trade t${n} is ${after}, expected ${valueBefore} - ${drop}`);
    }
    return touch([agent.id], [comp.id]);
  }
}

export class Quote extends Base {
  constructor(readonly agent: number, readonly comp: number, readonly from: TokenName, readonly to: TokenName, readonly amount: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.agents.length > 0 && m.comps.length > 0;
  toString = () => `quote(a${this.agent}, c${this.comp}, ${this.from}->${this.to}, ${this.amount})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const agent = pick(m.agents, this.agent);
    const comp = pick(m.comps, this.comp);
    const usd = this.amount * priceOf(m, TOKENS[this.from].address);
    const toPrice = priceOf(m, TOKENS[this.to].address);
    const [lo, hi] = slippageBounds(usd);
    const toAmount: Json = toPrice === 0 ? null
      : m.slippage === 'none' ? { $approx: usd / toPrice, $rel: 1e-9 }
        : { $gte: (usd * (1 - hi)) / toPrice * (1 - 1e-12), $lte: (usd * (1 - lo)) / toPrice * (1 + 1e-12) };
    const before = await r.d.mark();
    await send(r, {
      method: 'GET', path: '/api/trade/quote', as: agent,
      query: { competitionId: comp.id, fromToken: TOKENS[this.from].address, toToken: TOKENS[this.to].address, amount: String(this.amount) },
      expect: { status: 200, body: { fromAmount: this.amount, toAmount, tradeAmountUsd: { $approx: usd, $rel: 1e-12 } } },
    }, true);
    // Without slippage a quote draws nothing, so it must leave the world exactly as it was.
    if (m.slippage === 'none') await expectUnchanged(r, before, 'quote');
    return none();
  }
}

export class Advance extends Base {
  constructor(readonly ms: number) {
    super();
  }
  check = () => true;
  toString = () => `advance(${this.ms})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    await sim(r, { advance: this.ms });
    advanceModel(m, this.ms);
    return touch([], m.comps.map((c) => c.id));
  }
}

export class SetPrice extends Base {
  constructor(readonly token: TokenName, readonly factor: number) {
    super();
  }
  check = () => true;
  toString = () => `price(${this.token} x${this.factor})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const t = TOKENS[this.token];
    const price = t.price * this.factor;
    await sim(r, { setPrice: { token: t.address, specificChain: t.chain, price } });
    m.prices.set(t.address, price);
    return everything();
  }
}

/** A read: answers 2xx (or the listed refusal) and changes nothing at all. */
export class Read extends Base {
  constructor(readonly which: number, readonly agent: number, readonly comp: number) {
    super();
  }
  check = (m: Readonly<Model>) => m.agents.length > 0 && m.comps.length > 0;
  toString = () => `read(${this.which}, a${this.agent}, c${this.comp})`;
  protected async act(m: Model, r: Real): Promise<Touched> {
    const agent = pick(m.agents, this.agent);
    const comp = pick(m.comps, this.comp);
    const reads: [string, Record<string, string>, MAgent | 'admin' | undefined, number[]][] = [
      [`/api/competitions/${comp.id}/rules`, {}, undefined, [200]],
      [`/api/competitions/${comp.id}/timeline`, { bucket: '5' }, undefined, [200]],
      [`/api/competitions/${comp.id}`, {}, agent, [200]],
      [`/api/agents/${agent.id}`, {}, undefined, [200]],
      [`/api/agents/${agent.id}/competitions`, {}, undefined, [200]],
      ['/api/competitions/status', {}, agent, [200]],
      ['/api/competitions/upcoming', {}, agent, [200]],
      ['/api/agent/profile', {}, agent, [200]],
      ['/api/price', { token: TOKENS.SOL.address }, agent, [200]],
      ['/api/account/portfolio', {}, agent, [200]],
      ['/api/account/balances', {}, agent, [200]],
      ['/api/competitions/leaderboard', { competitionId: comp.id }, agent, [200, 403]],
      [`/api/admin/competition/${comp.id}/snapshots`, {}, 'admin', [200]],
      ['/api/competitions', { status: 'active' }, agent, [200]],
      ['/api/agent/balances', {}, agent, [200, 400, 403]],
      ['/api/health/detailed', {}, undefined, [200]],
    ];
    const [path, query, as, statuses] = pick(reads, this.which);
    const before = await r.d.mark();
    await send(r, { method: 'GET', path, query, as, expect: { status: statuses } }, true);
    await expectUnchanged(r, before, `GET ${path}`);
    return none();
  }
}
