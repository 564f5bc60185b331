import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from './csv.js';

describe('the CSV writer', () => {
  it('writes numbers, negative ones too, as numbers', () => {
    expect(csvRow([-3, 0, 12, 1.5, -0.25])).toBe('-3,0,12,1.5,-0.25\r\n');
  });

  it('defuses a text cell a spreadsheet would run as a formula', () => {
    for (const lead of ['=', '+', '-', '@', '\t', '\r']) expect(csvField(`${lead}SUM(A1)`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('-3')).toBe("'-3");
    expect(csvField('\rcmd')).toBe('"\'\rcmd"');
    expect(csvField('a=b')).toBe('a=b');
  });

  it('quotes quotes, commas and line breaks, and leaves empty cells empty', () => {
    expect(csvField('a "b"')).toBe('"a ""b"""');
    expect(csvField('x,y')).toBe('"x,y"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvRow(['', null, undefined, 'ok'])).toBe(',,,ok\r\n');
  });
});
