// Every relative link in README.md and docs/*.md resolves: the file exists and a #fragment names a heading of the target page (GitHub's slug rules).
import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** The checked pages, relative to the repository root. */
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** The lines of `md` outside fenced code blocks (GitHub renders neither links nor headings inside them). */
function proseLines(md: string): string[] {
  let fence: string | null = null;
  const out: string[] = [];
  for (const line of md.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === null || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence === null ? marker : null;
      continue;
    }
    if (fence === null) out.push(line);
  }
  return out;
}

/** GitHub's heading anchor: lower case, punctuation dropped (`-` and `_` kept), each space a `-`. */
export function slug(heading: string): string {
  const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a page's headings; a repeated slug gets `-1`, `-2`, ... as on GitHub. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of proseLines(md)) {
    const text = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line)?.[1];
    if (text === undefined) continue;
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Link targets of a page: inline links and images (inline code removed first) and reference definitions. */
export function linkTargets(md: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(md)) {
    const text = line.replace(/(`+)[\s\S]*?\1/g, '');
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
    const def = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
    if (def) targets.push(def[1]!);
  }
  return targets;
}

/** Each relative link of `pages` (paths under `root`) that does not resolve, as `page: target (reason)`. */
export function brokenLinks(root: string, pages: readonly string[]): string[] {
  const problems: string[] = [];
  for (const page of pages) {
    const md = readFileSync(join(root, page), 'utf8');
    for (const target of linkTargets(md)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue; // external
      const [pathPart = '', fragment] = target.split('#', 2);
      const path = decodeURIComponent(pathPart.split('?')[0]!);
      const file = path === '' ? join(root, page) : path.startsWith('/') ? join(root, path) : resolve(dirname(join(root, page)), path);
      if (!existsSync(file)) {
        problems.push(`${page}: ${target} (no such file)`);
        continue;
      }
      if (fragment === undefined || !file.endsWith('.md')) continue;
      if (!anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment))) problems.push(`${page}: ${target} (no such heading)`);
    }
  }
  return problems;
}

describe('documentation links', () => {
  it('every relative link in README.md and docs/*.md resolves to a file and heading', () => {
    expect(PAGES.length).to.be.greaterThan(5);
    expect(PAGES.reduce((n, p) => n + linkTargets(readFileSync(join(ROOT, p), 'utf8')).length, 0)).to.be.greaterThan(50);
    expect(brokenLinks(ROOT, PAGES)).to.deep.equal([]);
  });

  it('the docs index links every docs page, and the README links the index', () => {
    const index = new Set(linkTargets(readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8')));
    for (const page of PAGES.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')) expect([...index], page).to.include(page.slice('docs/'.length));
    expect(linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'))).to.include('docs/README.md');
  });

  it('uses GitHub heading anchors', () => {
    expect(slug('Persistence (`--state`)')).to.equal('persistence---state');
    expect(slug('Legacy (team) generation')).to.equal('legacy-team-generation');
    expect(slug("In your bot's own tests, without a socket (msw)")).to.equal('in-your-bots-own-tests-without-a-socket-msw');
    expect(slug('See [the API](api.md) and `snake_case`')).to.equal('see-the-api-and-snake_case');
    expect([...anchors('# A\n## A\n```sh\n# not a heading\n```\n### A ###\n')]).to.deep.equal(['a', 'a-1', 'a-2']);
  });

  describe('on a broken page', () => {
    let dir = '';
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'compsim-links-'));
      mkdirSync(join(dir, 'docs'));
      writeFileSync(join(dir, 'docs', 'b.md'), '# Page B\n\n## Persistence (`--state`)\n');
      writeFileSync(join(dir, 'README.md'), [
        '# Top',
        '[ok](docs/b.md) [ok](docs/b.md#persistence---state) [ok](#top) [ok](https://example.com/x.md) ![ok](docs)',
        '[gone](docs/missing.md) [bad anchor](docs/b.md#persistence) [bad self](#nowhere)',
        '`[in code](nope.md)`',
        '```md',
        '[in a fence](nope.md)',
        '```',
        '[ref]: docs/gone.md',
      ].join('\n'));
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('reports each broken link and nothing else', () => {
      expect(brokenLinks(dir, ['README.md', 'docs/b.md'])).to.deep.equal([
        'README.md: docs/missing.md (no such file)',
        'README.md: docs/b.md#persistence (no such heading)',
        'README.md: #nowhere (no such heading)',
        'README.md: docs/gone.md (no such file)',
      ]);
    });
  });
});
