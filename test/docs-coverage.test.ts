// The endpoint coverage table of docs/api.md is the one generated from the route table (`npm run docs:coverage`).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { API_PAGE, coverageStatus, END, renderCoverageTable, START, withCoverageTable } from '../scripts/coverage-table.js';
import { ROUTES } from '../src/http/resources/index.js';

describe('docs/api.md endpoint coverage table', () => {
  const page = readFileSync(API_PAGE, 'utf8');

  it('is current: the marked block equals the generated one (run `npm run docs:coverage`)', () => {
    expect(page).to.include(START).and.include(END);
    const block = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
    expect(block).to.equal(renderCoverageTable());
    expect(withCoverageTable(page)).to.equal(page);
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

  it('refuses a page without the markers', () => {
    expect(() => withCoverageTable('# no block here')).to.throw(/no coverage block/);
  });
});
