// The tool list of docs/mcp.md is the one generated from the MCP tools (`npm run docs:mcp`).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { END, MCP_PAGE, renderToolTable, START, withToolTable } from '../scripts/mcp-tools.js';
import { TOOL_ROUTES } from '../src/mcp/tools.js';

describe('docs/mcp.md tool list', () => {
  const page = readFileSync(MCP_PAGE, 'utf8');

  it('is current: the marked block equals the generated one (run `npm run docs:mcp`)', () => {
    expect(page).to.include(START).and.include(END);
    const block = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
    expect(block).to.equal(renderToolTable());
    expect(withToolTable(page)).to.equal(page);
  });

  it('lists every tool once, with the route it calls', () => {
    const table = renderToolTable();
    for (const t of TOOL_ROUTES) expect(table.split('\n').filter((l) => l.startsWith(`| \`${t.name}\` |`)), t.name).to.have.length(1);
    expect(table).to.include('| `execute_trade` | `POST /api/trade/execute` | **`fromToken` (string)**, **`toToken` (string)**, **`amount`**, **`reason` (string)**,');
  });

  it('refuses a page without the markers', () => {
    expect(() => withToolTable('# no block here')).to.throw(/no tool block/);
  });
});
