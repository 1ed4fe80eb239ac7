import { describe, expect, it } from 'vitest';
import { documentationFileProblem, extensionOfName, sortDocumentationFiles, titleFromFileName } from '../../src/shared/domain/documentation-upload';

/** The machine documentation's upload rule (spec part 1 §5): only text, PDF, Word, Excel; by extension and declared type. */
describe('documentation upload rule', () => {
  it.each([
    ['Handbuch.pdf', 'application/pdf'],
    ['HANDBUCH.PDF', ''],
    ['notizen.txt', 'text/plain'],
    ['zaehler.csv', 'text/csv'],
    // Windows declares a .csv as Excel; still a document of the allowed groups.
    ['zaehler.csv', 'application/vnd.ms-excel'],
    ['plan.doc', 'application/msword'],
    ['plan.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['liste.xls', 'application/vnd.ms-excel'],
    ['liste.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['scan.pdf', 'application/octet-stream'],
  ])('accepts %s declared as %j', (name, type) => {
    expect(sortDocumentationFiles([{ name, type }])).toEqual({ accepted: [{ name, type }], rejected: [] });
  });

  it.each([
    ['setup.exe', 'application/x-msdownload', 'application/x-msdownload'],
    ['foto.png', 'image/png', 'image/png'],
    ['video.mp4', 'video/mp4', 'video/mp4'],
    ['folien.pptx', '', '.pptx'],
    ['seiten.pages', '', '.pages'],
    ['ohne-endung', '', '?'],
    ['ohne-endung', 'application/pdf', 'application/pdf'],
    // The name says PDF, the browser says image: the declared type decides against it.
    ['getarnt.pdf', 'image/png', 'image/png'],
    ['seite.txt', 'text/html', 'text/html'],
  ])('rejects %s declared as %j, shown as type %j', (name, type, shown) => {
    const { accepted, rejected } = sortDocumentationFiles([{ name, type }]);
    expect(accepted).toEqual([]);
    expect(rejected).toEqual([{ file: { name, type }, type: shown }]);
  });

  it('several files at once: the rejected ones are listed with their type and skipped, the others go on in order', () => {
    const files = [
      { name: 'a.pdf', type: 'application/pdf' },
      { name: 'b.exe', type: 'application/x-msdownload' },
      { name: 'c.xlsx', type: '' },
      { name: 'd.png', type: 'image/png' },
      { name: 'e.txt', type: 'text/plain' },
    ];
    const { accepted, rejected } = sortDocumentationFiles(files);
    expect(accepted.map((file) => file.name)).toEqual(['a.pdf', 'c.xlsx', 'e.txt']);
    expect(rejected.map(({ file, type }) => [file.name, type])).toEqual([
      ['b.exe', 'application/x-msdownload'],
      ['d.png', 'image/png'],
    ]);
  });

  it('the server-side form names the refused type in the spec’s words', () => {
    expect(documentationFileProblem('png', 'image/png')).toMatch(/^Ungültiger Dateityp! Es sind nur \(Text, PDF, Word, Excel\) Dateien zulässig/);
    expect(documentationFileProblem('pdf', 'application/pdf')).toBeUndefined();
    expect(documentationFileProblem('', undefined)).toContain('.?');
  });

  it('the title defaults to the file name without its extension', () => {
    expect(titleFromFileName('Betriebsanleitung CNC 500.pdf')).toBe('Betriebsanleitung CNC 500');
    expect(titleFromFileName('Handbuch.v2.docx')).toBe('Handbuch.v2');
    expect(titleFromFileName('a.b.c..PDF')).toBe('a.b.c');
    expect(titleFromFileName('Schaltplan . .pdf')).toBe('Schaltplan');
    expect(titleFromFileName('README')).toBe('README');
    expect(titleFromFileName('.pdf')).toBe('.pdf');
    expect(extensionOfName('Liste.XLSX')).toBe('xlsx');
    expect(extensionOfName('ordner.v1/datei')).toBe('');
  });
});
