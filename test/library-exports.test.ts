// The package's public API is what docs/library.md lists: each entry point's values, no more, no fewer.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as main from '../src/index.js';
import * as msw from '../src/http/adapters/msw.js';
import * as client from '../src/client/index.js';

const DOC = readFileSync(join(import.meta.dirname, '..', 'docs', 'library.md'), 'utf8');
/** The section of docs/library.md that lists the exports. */
const SECTION = DOC.slice(DOC.indexOf('## What the package exports'), DOC.indexOf('\n## ', DOC.indexOf('## What the package exports') + 1));
const named = (text: string) => [...text.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!);

describe('library exports', () => {
  it('compsim exports exactly the values docs/library.md lists in its table', () => {
    const table = SECTION.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Area')).flatMap((l) => named(l.split('|')[2] ?? ''));
    expect(Object.keys(main).sort()).to.deep.equal([...table].sort());
  });

  it('compsim/msw and compsim/client export what the section says', () => {
    const tail = SECTION.slice(SECTION.indexOf('`compsim/msw`'));
    const [mswPart, clientPart] = tail.split('`compsim/client`');
    expect(Object.keys(msw).sort()).to.deep.equal(named(mswPart!).filter((n) => n !== 'compsim').sort());
    expect(Object.keys(client).sort()).to.deep.equal(named(clientPart!.split('(')[0]!).sort());
  });
});
