// Example "agent" on MCP, no LLM needed: calls compsim's MCP tools as a model would, trading SOL every 15 virtual minutes for one virtual day, then prints its rank.
//
// It starts `npx compsim mcp --world demo` itself (over stdio, as Claude Desktop or Cursor would)
// and talks to it with the MCP SDK's Client (`npm install @modelcontextprotocol/sdk`):
//
//   npx tsx examples/mcp-agent.ts
//
// COMPSIM_MCP_COMMAND and COMPSIM_MCP_ARGS (space-separated) start another server, e.g.
// COMPSIM_MCP_ARGS="compsim mcp --world demo --agent mean_reverter".
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const SOL = 'So11111111111111111111111111111111111111112';
const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** One step of virtual time, and how many make a day. */
const STEP_MS = 15 * 60 * 1000;
const STEPS = 24 * 4;
/** Size of each trade: USDC spent on a buy, SOL sold on a sell. */
const BUY_USDC = 25;
const SELL_SOL = 0.1;

/** A tool's answer: the API's JSON, or the refusal text when the tool reports an error. */
type Answer = { ok: true; json: unknown } | { ok: false; text: string };

/** The parts of the API's answers this agent reads. */
interface Profile { agent: { id: string; name: string } }
interface Competitions { competitions: { id: string; name: string }[] }
interface Now { now: string }
interface Price { price: number }
interface Leaderboard { agents: { id: string; rank: number; portfolioValue: number }[] }

async function main(): Promise<void> {
  const command = process.env.COMPSIM_MCP_COMMAND ?? 'npx';
  const args = (process.env.COMPSIM_MCP_ARGS ?? 'compsim mcp --world demo').split(/\s+/).filter(Boolean);
  const client = new Client({ name: 'mcp-agent-example', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args }));

  const call = async (name: string, args: Record<string, unknown> = {}): Promise<Answer> => {
    const res = await client.callTool({ name, arguments: args });
    const text = (res.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    return res.isError ? { ok: false, text } : { ok: true, json: JSON.parse(text) as unknown };
  };
  /** A call that must succeed: anything else stops the agent with the API's message. */
  const must = async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
    const a = await call(name, args);
    if (!a.ok) throw new Error(`${name} failed: ${a.text}`);
    return a.json as T;
  };

  try {
    const { agent } = await must<Profile>('get_profile');
    const { competitions } = await must<Competitions>('list_competitions', { status: 'active' });
    const competition = competitions[0];
    if (!competition) throw new Error('no active competition');
    const { now: from } = await must<Now>('sim_now');
    console.log(`${agent.name} in ${competition.name} (${competition.id}), from ${from}`);

    let last: number | null = null;
    let trades = 0;
    let refused = 0;
    for (let step = 0; step < STEPS; step += 1) {
      const { price } = await must<Price>('get_price', { token: SOL, specificChain: 'svm' });
      // Momentum: buy after a rise (or at the start), sell after a fall.
      const buy = last === null || price >= last;
      const trade = await call('execute_trade', buy
        ? { fromToken: USDC, toToken: SOL, amount: BUY_USDC, reason: 'momentum: SOL rose', competitionId: competition.id }
        : { fromToken: SOL, toToken: USDC, amount: SELL_SOL, reason: 'momentum: SOL fell', competitionId: competition.id });
      // A refusal is the API's message: a model would read it and adjust; this agent counts it.
      if (trade.ok) trades += 1;
      else refused += 1;
      last = price;
      await must('sim_advance', { advanceMs: STEP_MS });
    }
    const { now: until } = await must<Now>('sim_now');
    console.log(`${trades} trades, ${refused} refused, until ${until}`);

    const board = await must<Leaderboard>('get_leaderboard', { competitionId: competition.id, limit: 100 });
    const me = board.agents.find((a) => a.id === agent.id);
    if (!me) throw new Error(`${agent.name} is not on the leaderboard`);
    console.log(`rank ${me.rank} of ${board.agents.length} (portfolio $${me.portfolioValue.toFixed(2)})`);
  } finally {
    await client.close();
  }
}

main().catch((err: unknown) => {
  console.error((err as Error).message);
  process.exit(1);
});
