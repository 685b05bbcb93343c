// examples/mcp-agent.ts run as a program: a scripted agent trading through `compsim mcp` over stdio for a virtual day, then printing its rank.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

describe('examples/mcp-agent.ts', function () {
  this.timeout(180_000);

  it('trades every 15 virtual minutes for a virtual day through MCP tools and prints its rank', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'examples', 'mcp-agent.ts')], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
      // The server it starts: this checkout's compsim, from its sources.
      env: { ...process.env, COMPSIM_MCP_COMMAND: process.execPath, COMPSIM_MCP_ARGS: `--import tsx ${join('src', 'cli', 'main.ts')} mcp --world demo` },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, out + err).to.equal(0);
    const lines = out.trim().split('\n');
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^Momentum Max in Demo Spring Cup \([0-9a-f-]{36}\), from 2025-06-02T12:00:00\.000Z$/);
    expect(lines[1]).to.equal('96 trades, 0 refused, until 2025-06-03T12:00:00.000Z');
    expect(lines[2]).to.match(/^rank [123] of 3 \(portfolio \$\d+\.\d{2}\)$/);
    // The server's start-up line went to stderr (inherited), never into the protocol.
    expect(err).to.include('compsim mcp: world demo (seed 2025, API version spec) as Momentum Max (@momentum_max); 19 tools over stdio');
  });
});
