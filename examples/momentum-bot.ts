// Example bot on compsim/client: trades SOL/USDC every 5 virtual minutes for one virtual day, then prints its rank.
//
// Start a server with the demo world and the simulation control API, then run the bot with the keys
// the server's banner prints (any server of the same API works for the trading part; moving the
// clock needs compsim's /api/sim/clock):
//
//   npx compsim serve --world demo --sim-api
//   COMPSIM_AGENT_KEY=<agent key> COMPSIM_ADMIN_KEY=<admin key> npx tsx examples/momentum-bot.ts
import { CompsimError, createClient } from 'compsim/client';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** One step of virtual time, and how many make a day. */
const STEP = '5m';
const STEPS = 24 * 12;
/** Size of each trade: USDC spent on a buy, SOL sold on a sell. */
const BUY_USDC = 25;
const SELL_SOL = 0.1;

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the comment at the top of this file)`);
  return value;
}

async function main(): Promise<void> {
  const baseUrl = process.env.COMPSIM_URL ?? 'http://127.0.0.1:3000';
  const bot = createClient({ baseUrl, apiKey: env('COMPSIM_AGENT_KEY') });
  const control = createClient({ baseUrl, apiKey: env('COMPSIM_ADMIN_KEY') });

  // Raw calls answer { data, error, response }: check `error` yourself.
  const profile = await bot.GET('/api/agent/profile');
  if (profile.error) throw new Error(`GET /api/agent/profile: ${profile.response.status} ${profile.error.error}`);
  const { agent } = profile.data;
  // The agent's active competition (the demo world's agents are in one).
  const mine = await bot.GET('/api/agents/{agentId}/competitions', { params: { path: { agentId: agent.id }, query: { status: 'active' } } });
  if (mine.error) throw new Error(`GET /api/agents/{agentId}/competitions: ${mine.response.status} ${mine.error.error}`);
  const competitionId = mine.data.competitions[0]?.id;
  if (!competitionId) throw new Error(`${agent.name} is in no active competition`);
  // The shortcuts answer the body and throw a CompsimError for anything but a 2xx answer.
  await bot.balances(competitionId);
  console.log(`${agent.name} in competition ${competitionId}, from ${(await control.sim.now()).now}`);

  let last: number | null = null;
  let trades = 0;
  let refused = 0;
  for (let step = 0; step < STEPS; step += 1) {
    const { price } = await bot.price(SOL, 'svm');
    // Momentum: buy after a rise (or at the start), sell after a fall.
    const buy = last === null || price === null || price >= last;
    try {
      await bot.trade(buy
        ? { fromToken: USDC, toToken: SOL, amount: BUY_USDC, reason: 'momentum: SOL rose', competitionId }
        : { fromToken: SOL, toToken: USDC, amount: SELL_SOL, reason: 'momentum: SOL fell', competitionId });
      trades += 1;
    } catch (err) {
      // A refused trade (a rule, a balance: 400) is part of trading: count it and go on. Anything else stops the bot.
      if (!(err instanceof CompsimError) || err.status !== 400) throw err;
      refused += 1;
      console.log(`step ${step}: trade refused: ${err.message}`);
    }
    last = price;
    await control.sim.advance(STEP);
  }

  const board = await bot.GET('/api/competitions/{competitionId}/agents', {
    params: { path: { competitionId }, query: { limit: 100 } },
  });
  if (board.error) throw new Error(`GET /api/competitions/{competitionId}/agents: ${board.response.status} ${board.error.error}`);
  const me = board.data.agents.find((a) => a.id === agent.id);
  if (!me) throw new Error('the agent is not on its competition\'s leaderboard');
  console.log(`${trades} trades, ${refused} refused, until ${(await control.sim.now()).now}`);
  console.log(`portfolio $${me.portfolioValue.toFixed(2)} (${me.pnlPercent.toFixed(2)}%)`);
  console.log(`rank ${me.rank} of ${board.data.agents.length}`);
}

main().catch((err: unknown) => {
  // A CompsimError's message is the server's own ("Cannot POST /api/sim/clock; ..." without --sim-api).
  console.error(err instanceof CompsimError ? `${err.request}: ${err.status} ${err.message}` : (err as Error).message);
  process.exitCode = 1;
});
