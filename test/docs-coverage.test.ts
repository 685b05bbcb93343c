// The README's endpoint coverage table is the one generated from the route table (`npm run docs:coverage`).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { coverageStatus, END, README, renderCoverageTable, START, withCoverageTable } from '../scripts/coverage-table.js';
import { ROUTES } from '../src/http/routes/index.js';

describe('README endpoint coverage table', () => {
  const readme = readFileSync(README, 'utf8');

  it('is current: the marked block equals the generated one (run `npm run docs:coverage`)', () => {
    expect(readme).to.include(START).and.include(END);
    const block = readme.slice(readme.indexOf(START), readme.indexOf(END) + END.length);
    expect(block).to.equal(renderCoverageTable());
    expect(withCoverageTable(readme)).to.equal(readme);
  });

  it('lists every route once with its generation and status', () => {
    const table = renderCoverageTable();
    for (const r of ROUTES) {
      const rows = table.split('\n').filter((l) => l.startsWith(`| \`${r.method} ${r.path}`) && (l.includes(`${r.path}\``) || l.includes(`${r.path}?`)));
      expect(rows, `${r.method} ${r.path}`).to.have.length(1);
      expect(rows[0]).to.include(`| ${coverageStatus(r)} |`);
    }
    expect(ROUTES.filter((r) => r.generation === 'sim').every((r) => coverageStatus(r) === 'compsim only')).to.equal(true);
  });

  it('refuses a README without the markers', () => {
    expect(() => withCoverageTable('# no block here')).to.throw(/no coverage block/);
  });
});
