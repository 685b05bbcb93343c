// CSV through csv-stringify and csv-parse: any text round-trips exactly, and no cell a spreadsheet opens starts a formula.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { escapeCell, parseCsv, toCsv, unescapeCell } from '../../src/research/csv.js';

/** Text made of the characters CSV and spreadsheets treat specially, plus any unicode. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'Z', '1', ',', '"', "'", '\n', '\r', '\t', ' ', '=', '+', '-', '@', '#', ';', 'é', '漢', '🙂') }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', ' ', '-5', '+1.5', '2e-7', '=HYPERLINK("http://x","y")', '@SUM(1)', "'=1", '#comment', ' spaced ', 'a\r\nb'),
);

describe('CSV', () => {
  it('reads back every row it writes exactly: quotes, commas, line breaks, unicode, spaces at either end', () => {
    const table = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(
      fc.array(text, { minLength: n, maxLength: n }),
      fc.array(fc.array(fc.option(text, { nil: null }), { minLength: n, maxLength: n }), { maxLength: 8 }),
    ));
    fc.assert(fc.property(table, ([header, rows]) => {
      const back = parseCsv(toCsv(header, rows), 't.csv');
      expect(back.records).to.deep.equal([header, ...rows.map((r) => r.map((c) => c ?? ''))]);
    }), { seed: 20261201, numRuns: 2000 });
  });

  it('writes no text cell that a spreadsheet would run as a formula, and numbers as they are', () => {
    fc.assert(fc.property(fc.array(text, { minLength: 1, maxLength: 5 }), (cells) => {
      const raw = parse(toCsv(['x'], cells.map((c) => [c])), { relax_column_count: true }) as string[][];
      for (const [i, [cell]] of raw.slice(1).entries()) {
        const plainNumber = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(cells[i]!);
        if (!plainNumber) expect(cell!, JSON.stringify(cells[i])).to.not.match(/^[=+\-@\t\r]/);
        expect(unescapeCell(cell!)).to.equal(cells[i]);
      }
    }), { seed: 20261202, numRuns: 1000 });
    expect(toCsv(['n', 'v'], [[-5, 1e-7], [null, true]])).to.equal('n,v\n-5,1e-7\n,true\n');
    expect(escapeCell('=1+1')).to.equal("'=1+1");
    expect(escapeCell('-2+3+cmd|x')).to.equal("'-2+3+cmd|x");
    expect(escapeCell('-2.5')).to.equal('-2.5');
    expect(escapeCell("'kept")).to.equal("''kept");
  });

  it('names the file and the line of malformed text', () => {
    expect(() => parseCsv('a,b\n"x,1\n', 'bad.csv')).to.throw(/^bad\.csv: not valid CSV: Quote Not Closed/);
    expect(() => parseCsv(`a\n"${'x'.repeat(200)}"\n`, 'big.csv', { maxRecordChars: 100 })).to.throw(/^big\.csv: not valid CSV: .*(record|size)/i);
  });
});
