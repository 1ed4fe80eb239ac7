import { describe, expect, it } from 'vitest';
import { CSV_BOM, CsvSyntaxError, detectSeparator, parseCsv, serializeCsv } from '../../src/client/lib/csv';

describe('CSV for German Excel', () => {
  it('writes a BOM, semicolons and CRLF, quoting only what needs it', () => {
    const text = serializeCsv([
      ['Name', 'Maß'],
      ['Presse; groß', 'sagt "hallo"'],
      ['zwei\nZeilen', ''],
    ]);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    expect(text).toBe(`${CSV_BOM}Name;Maß\r\n"Presse; groß";"sagt ""hallo"""\r\n"zwei\nZeilen";\r\n`);
  });

  it('round-trips separators, quotes, line breaks, umlauts and empty fields', () => {
    const rows = [
      ['nodeid', 'name', 'beschreibung', 'leer'],
      ['1', 'Hydraulikpresse "HP 3"', 'a;b;c', ''],
      ['2', 'Fräse', 'Zeile 1\r\nZeile 2', ''],
      ['3', '', '', 'x'],
    ];
    expect(parseCsv(serializeCsv(rows))).toEqual(rows);
  });

  it('reads comma files from English Excel, LF endings and no BOM', () => {
    expect(detectSeparator('a,b\n1,2')).toBe(',');
    expect(detectSeparator('a;b,c\n')).toBe(';');
    expect(parseCsv('a,b\n"1,5",2\n')).toEqual([
      ['a', 'b'],
      ['1,5', '2'],
    ]);
  });

  it('skips blank lines and keeps a trailing empty field', () => {
    expect(parseCsv('a;b\r\n\r\n1;\r\n')).toEqual([
      ['a', 'b'],
      ['1', ''],
    ]);
  });

  it('names the line of an unterminated quote', () => {
    expect(() => parseCsv('a;b\n1;"offen\n2;3')).toThrow(CsvSyntaxError);
    try {
      parseCsv('a;b\n1;"offen\n2;3');
    } catch (error) {
      expect((error as CsvSyntaxError).line).toBe(2);
    }
  });
});
