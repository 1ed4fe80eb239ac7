/** The uploader rules the FAQ, solution and notification forms share (src/client/lib/attachment-files.ts; spec part 1 §5). */
import { describe, expect, it } from 'vitest';
import { attachmentTitle, keyedFiles, sortPickedFiles, UPLOAD_ACCEPT } from '../../src/client/lib/attachment-files';

describe('the uploader of the FAQ, solution and notification forms (§5)', () => {
  const file = (name: string, size = 100, type = '') => ({ name, size, type });

  it('takes images, videos and documents incl. Apple Pages/Numbers/Keynote; lists the others with their type', () => {
    const picked = ['Foto.JPG', 'clip.mov', 'Anleitung.pdf', 'Plan.docx', 'Liste.xlsx', 'Folien.pptx', 'notiz.txt', 'Bericht.pages', 'Kosten.numbers', 'Schulung.key'].map((name) => file(name));
    expect(sortPickedFiles(picked).accepted.map((f) => f.name)).toEqual(picked.map((f) => f.name));
    const { accepted, rejected } = sortPickedFiles([file('setup.exe'), file('Seite.html', 10, 'text/html'), file('ohne-endung', 10, 'application/octet-stream'), file('leer.pdf', 0), file('ok.png')]);
    expect(accepted.map((f) => f.name)).toEqual(['ok.png']);
    expect(rejected).toEqual([
      { name: 'setup.exe', type: '.exe' },
      { name: 'Seite.html', type: '.html' },
      { name: 'ohne-endung', type: 'application/octet-stream' },
      { name: 'leer.pdf', type: '.pdf' },
    ]);
  });

  it('the chooser offers the same extensions and the camera', () => {
    for (const part of ['image/*', 'video/*', '.pdf', '.pages', '.numbers', '.key', '.docx']) expect(UPLOAD_ACCEPT.split(',')).toContain(part);
    expect(UPLOAD_ACCEPT).not.toContain('.exe');
  });

  it('titles an attachment with the file name without its extension', () => {
    expect(attachmentTitle('Schaltplan Achse X.pdf')).toBe('Schaltplan Achse X');
    expect(attachmentTitle('archiv.tar.gz')).toBe('archiv.tar');
    expect(attachmentTitle('.pdf')).toBe('.pdf');
  });

  it('solution form: takes images, videos and documents (incl. Pages), lists the rest with their type', () => {
    const files = [
      { name: 'foto.JPG', type: 'image/jpeg', size: 10 },
      { name: 'clip.mp4', type: 'video/mp4', size: 10 },
      { name: 'bericht.pages', type: '', size: 10 },
      { name: 'setup.exe', type: 'application/x-msdownload', size: 10 },
      { name: 'leer.pdf', type: 'application/pdf', size: 0 },
    ];
    const { accepted, rejected } = sortPickedFiles(files);
    expect(accepted.map((file) => file.name)).toEqual(['foto.JPG', 'clip.mp4', 'bericht.pages']);
    expect(rejected).toEqual([
      { name: 'setup.exe', type: '.exe' },
      { name: 'leer.pdf', type: '.pdf' },
    ]);
  });

  it('notification form: the §5 types are taken, others and empty ones skipped', () => {
    const files = [
      { name: 'foto.JPG', size: 10 },
      { name: 'video.mov', size: 10 },
      { name: 'plan.numbers', size: 10 },
      { name: 'setup.exe', size: 10 },
      { name: 'leer.pdf', size: 0 },
    ];
    const { accepted, rejected } = sortPickedFiles(files);
    expect(accepted.map((file) => file.name)).toEqual(['foto.JPG', 'video.mov', 'plan.numbers']);
    expect(rejected.map((file) => file.name)).toEqual(['setup.exe', 'leer.pdf']);
  });

  it('a file without extension and type is listed as ?; picked files get distinct keys, also for the same name', () => {
    expect(sortPickedFiles([{ name: 'ohne', size: 5 }]).rejected).toEqual([{ name: 'ohne', type: '?' }]);
    const keyed = keyedFiles([{ name: 'a.png' }, { name: 'a.png' }], 7);
    expect(keyed.map((entry) => entry.key)).toEqual(['7-0-a.png', '7-1-a.png']);
    expect(keyed.map((entry) => entry.file.name)).toEqual(['a.png', 'a.png']);
  });
});
