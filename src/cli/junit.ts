// JUnit XML of a `compsim run`: one testsuite, one testcase per scenario file, failures with the step, the request and the diff.
import type { ScenarioResult } from '../harness/runner.js';
import { formatFailure } from './run-output.js';

/** One file's result and wall time. */
export interface JunitCase { result: Omit<ScenarioResult, 'log'>; ms: number }

/** Characters XML 1.0 cannot hold at all (control characters other than tab, newline, carriage return; lone surrogates; U+FFFE/U+FFFF). */
const INVALID = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text escaped for XML element content and attribute values; characters XML cannot hold become U+FFFD. */
export function xmlEscape(s: string): string {
  return s.replace(INVALID, '\ufffd').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)
    // Line breaks in attributes would be normalised to spaces by parsers; keep them.
    .replace(/\r/g, '&#13;');
}

const attr = (s: string) => xmlEscape(s).replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** `file`'s folder with dots, the usual JUnit class name (`scenarios.trading`). */
function className(file: string): string {
  const parts = file.split(/[\\/]+/).filter((p) => p !== '' && p !== '.');
  parts.pop();
  return parts.length > 0 ? parts.join('.') : 'scenarios';
}

/**
 * The JUnit XML document: `<testsuites>` with `tests`, `failures`, `errors` and `time`, one
 * `<testsuite>` named `suite`, and a `<testcase>` per file (`name` the file, `classname` its folder).
 * A failed step is a `<failure>` (message: where and why; text: the step, the request, the status
 * and the expected/actual diff); a file that does not validate is an `<error>`. Seed and log
 * hash are `<properties>` of each case. `unreachable` (why the target did not answer) adds one
 * case named after the target with an `<error type="unreachable">`, so CI shows the server down
 * once instead of a failure per file.
 */
export function renderJunit(suite: string, cases: readonly JunitCase[], target: string, unreachable?: string): string {
  const failures = cases.filter((c) => !c.result.ok && c.result.failure?.verb !== 'file').length;
  const errors = cases.filter((c) => !c.result.ok && c.result.failure?.verb === 'file').length + (unreachable === undefined ? 0 : 1);
  const time = seconds(cases.reduce((s, c) => s + c.ms, 0));
  const head = `tests="${cases.length + (unreachable === undefined ? 0 : 1)}" failures="${failures}" errors="${errors}" skipped="0" time="${time}"`;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(suite)}" ${head}>`,
    `  <testsuite name="${attr(suite)}" ${head}>`,
    '    <properties>',
    `      <property name="target" value="${attr(target)}"/>`,
    '    </properties>',
  ];
  for (const { result: r, ms } of cases) {
    out.push(`    <testcase name="${attr(r.file)}" classname="${attr(className(r.file))}" time="${seconds(ms)}">`);
    out.push('      <properties>', `        <property name="seed" value="${attr(String(r.seed))}"/>`, `        <property name="sha256" value="${attr(r.hash)}"/>`, '      </properties>');
    if (r.failure) {
      const f = r.failure;
      const tag = f.verb === 'file' ? 'error' : 'failure';
      const message = f.verb === 'file' ? 'invalid scenario file' : `at ${f.at} (${f.verb}): ${f.message}`;
      const text = formatFailure(f, false).map((l) => l.replace(/^ {2}/, '')).join('\n');
      out.push(`      <${tag} message="${attr(message)}" type="${f.verb === 'file' ? 'invalid' : attr(f.verb)}">${xmlEscape(text)}</${tag}>`);
    }
    out.push(`      <system-out>${xmlEscape(`${r.stepsPassed}/${r.steps} steps, ${r.requests} requests, log sha256 ${r.hash || '-'}`)}</system-out>`);
    out.push('    </testcase>');
  }
  if (unreachable !== undefined) {
    out.push(`    <testcase name="${attr(`target ${target}`)}" classname="compsim.target" time="0.000">`,
      `      <error message="${attr(unreachable)}" type="unreachable">${xmlEscape(unreachable)}</error>`, '    </testcase>');
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}
