// The API version table of docs/versions.md is the one generated from the rules table (`npm run docs:versions`).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { END, renderVersionTable, START, VERSIONS_PAGE, withVersionTable } from '../scripts/version-table.js';
import { API_VERSIONS, VERSION_RULES } from '../src/domain/versions.js';

describe('docs/versions.md version table', () => {
  const page = readFileSync(VERSIONS_PAGE, 'utf8');

  it('is current: the marked block equals the generated one (run `npm run docs:versions`)', () => {
    expect(page).to.include(START).and.include(END);
    const block = page.slice(page.indexOf(START), page.indexOf(END) + END.length);
    expect(block).to.equal(renderVersionTable());
    expect(withVersionTable(page)).to.equal(page);
  });

  it('has one line per rule and a column per version plus the team era', () => {
    const lines = renderVersionTable().split('\n').filter((l) => l.startsWith('| '));
    expect(lines).to.have.length(Object.keys(VERSION_RULES).length + 1);
    for (const v of API_VERSIONS) expect(lines[0]).to.include(`\`${v}\``);
    expect(lines[0]).to.include('team keys');
  });

  it('refuses a page without the markers', () => {
    expect(() => withVersionTable('# nothing')).to.throw(/no version block/);
  });
});
