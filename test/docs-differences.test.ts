// docs/differences.md says which API versions each difference applies to, and docs/legacy.md and docs/differences.md record the legacy leaderboard's shape as a choice.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { API_VERSIONS } from '../src/domain/versions.js';

const ROOT = join(import.meta.dirname, '..');
const read = (page: string) => readFileSync(join(ROOT, 'docs', page), 'utf8');
/** Text with every run of white space as one space (line wrapping is not content). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** The `## ` sections of a page: heading -> text up to the next one. */
function sections(md: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of md.split(/^## /m).slice(1)) out.set(part.slice(0, part.indexOf('\n')), part.slice(part.indexOf('\n') + 1));
  return out;
}

describe('docs/differences.md', () => {
  const page = sections(read('differences.md'));

  it('names the versions of every section: the general ones every version, one bullet per version, team keys for the legacy routes', () => {
    expect([...page.keys()]).to.deep.equal(['Across the API', 'Per API version', 'Legacy (team) generation', 'Wallet verification, badge, perps and spot-live']);
    expect(page.get('Across the API')).to.match(/^\s*These apply to every API version \(`spec`, `2026-08`, `2025-10`\)/);
    expect(page.get('Wallet verification, badge, perps and spot-live')).to.match(/^\s*These apply to every API version\./);
    expect(page.get('Legacy (team) generation')).to.include('(team keys, whatever the world\'s version)');
    for (const v of API_VERSIONS) expect(page.get('Per API version'), v).to.include(`\n- **\`${v}\`**: `);
  });

  it('lists the legacy leaderboard\'s shape as a difference from the legacy simulator\'s last release', () => {
    const legacy = flat(page.get('Legacy (team) generation')!);
    expect(legacy).to.include('keeps the specification\'s team-era shape, a deliberate choice');
    expect(legacy).to.include('kept a deactivated team in `leaderboard` with its rank, `active: false` and its `deactivationReason`');
    expect(legacy).to.include('`inactiveTeamsFiltered: false`');
  });
});

describe('docs/legacy.md', () => {
  const page = flat(read('legacy.md'));

  it('records the leaderboard shape as compsim\'s choice and says what the legacy simulator did instead', () => {
    expect(page).to.not.include('as upstream, and the remaining rows');
    expect(page).to.include('**The legacy leaderboard keeps the specification\'s shape, by choice.**');
    expect(page).to.include('not the legacy simulator\'s last release, which kept a deactivated team in `leaderboard` with its rank, `active: false` and its `deactivationReason`');
    expect(page).to.include('[differences](differences.md#legacy-team-generation)');
  });
});
