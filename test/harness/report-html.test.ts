// The run report's SVG chart: 1-2-5 value ticks, whole-unit time ticks, labels inside the drawing, 20 agents readable, one snapshot with distinct labels.
import { expect } from 'chai';
import type { ValueSeries } from '../../src/harness/report.js';
import { legendTable, niceTicks, valueChart } from '../../src/harness/report-html.js';

const T0 = Date.UTC(2025, 0, 1);
const MINUTE = 60_000;

/** The chart's labels of one class: text, x and anchor. */
function labels(svg: string, cls: string): { text: string; x: number; anchor: string }[] {
  return [...svg.matchAll(new RegExp(`<text class="${cls}" x="([\\d.]+)" y="[\\d.]+" text-anchor="(\\w+)"[^>]*>([^<]*)</text>`, 'g'))]
    .map((m) => ({ x: Number(m[1]), anchor: m[2]!, text: m[3]! }));
}

/** Asserts a label's estimated extent (6.5 px per character) lies within the 760 px drawing. */
function inside(l: { text: string; x: number; anchor: string }): void {
  const w = l.text.length * 6.5;
  const left = l.anchor === 'start' ? l.x : l.anchor === 'end' ? l.x - w : l.x - w / 2;
  expect(left, l.text).to.be.at.least(0);
  expect(left + w, l.text).to.be.at.most(760);
}

/** 20 agents over two days of 5-minute snapshots, agent i drifting by i % 7 - 3 USD per step around 20,974.54. */
function twentyAgents(): ValueSeries[] {
  return Array.from({ length: 20 }, (_, i) => ({
    agentId: `a${i}`, agentName: `Agent ${String(i).padStart(2, '0')}`,
    points: Array.from({ length: 577 }, (_, k): [number, number] => [T0 + k * 5 * MINUTE, 20_974.54 + k * ((i % 7) - 3) + i]),
  }));
}

describe('report.html value chart', () => {
  it('puts value ticks on 1-2-5 steps that enclose the data', () => {
    expect(niceTicks(20_974.54, 22_771.54)).to.deep.equal([20_500, 21_000, 21_500, 22_000, 22_500, 23_000]);
    expect(niceTicks(0.1, 0.33)).to.deep.equal([0.1, 0.15, 0.2, 0.25, 0.3, 0.35]);
    expect(niceTicks(10_000, 10_000)).to.deep.equal([9_400, 9_600, 9_800, 10_000, 10_200, 10_400, 10_600]);
  });

  it('draws 20 agents with the top 5 by final value in colour over 15 grey lines, every label inside and on nice values', () => {
    const series = twentyAgents();
    const svg = valueChart(series);
    const top = [...svg.matchAll(/<polyline class="top" fill="none" stroke="(hsl[^"]+)"[^>]*><title>([^<]+)<\/title>/g)].map((m) => m[2]);
    const rest = [...svg.matchAll(/<polyline class="rest" fill="none" stroke="#bdbdbd"/g)];
    // Final value 20,974.54 + 576 * (i % 7 - 3) + i: highest for i % 7 = 6 (i = 13, 6), then i % 7 = 5 (i = 19, 12, 5).
    expect(top).to.have.members(['Agent 13', 'Agent 06', 'Agent 19', 'Agent 12', 'Agent 05']);
    expect(rest).to.have.length(15);
    // Grey lines come first in the drawing, so the highlighted ones are on top.
    expect(svg.lastIndexOf('class="rest"')).to.be.below(svg.indexOf('class="top"'));
    const y = labels(svg, 'tick-y');
    expect(y.map((l) => l.text)).to.deep.equal(['19,000', '20,000', '21,000', '22,000', '23,000']);
    const x = labels(svg, 'tick-x');
    expect(x.map((l) => l.text)).to.deep.equal(['01-01 00:00', '01-01 12:00', '01-02 00:00', '01-02 12:00', '01-03 00:00']);
    for (const l of [...x, ...y]) inside(l);
    expect(x[x.length - 1]!.anchor).to.equal('end');
  });

  it('lists the agents by final value in the legend table, with their colours', () => {
    const html = legendTable(twentyAgents());
    const rows = [...html.matchAll(/<tr><td><span class="sw" style="background:([^"]+)"><\/span>([^<]+)<\/td><td class="n">([\d.]+)<\/td><\/tr>/g)];
    expect(rows).to.have.length(20);
    const values = rows.map((r) => Number(r[3]));
    expect(values).to.deep.equal([...values].sort((a, b) => b - a));
    expect(rows.slice(0, 5).every((r) => r[1]!.startsWith('hsl'))).to.equal(true);
    expect(rows.slice(5).every((r) => r[1] === '#bdbdbd')).to.equal(true);
    expect(rows[0]![2]).to.equal('Agent 13');
  });

  it('shows one snapshot in an hour around it, with distinct time labels', () => {
    const svg = valueChart([{ agentId: 'a', agentName: 'Solo', points: [[T0 + 90 * MINUTE, 10_000]] }]);
    const x = labels(svg, 'tick-x').map((l) => l.text);
    expect(x).to.deep.equal(['01-01 01:00', '01-01 01:10', '01-01 01:20', '01-01 01:30', '01-01 01:40', '01-01 01:50', '01-01 02:00']);
    expect(new Set(x).size).to.equal(x.length);
    expect(svg).to.match(/<circle class="top" cx="408\.0"/);
    expect(labels(svg, 'tick-y').map((l) => l.text)).to.include('10,000');
  });
});
