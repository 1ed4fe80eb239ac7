import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logMethodHook } from '../../src/server/logging';

function logger(level: string, quietListening = false) {
  const lines: { level: number; msg?: string; err?: { message: string } }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()));
      callback();
    },
  });
  // why the cast: pino types its hook with its own LogFn; the hook is written against the plain call shape.
  const log = pino({ level, hooks: { logMethod: logMethodHook(quietListening) as never } }, sink);
  return { log, lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('log lines of a client that went away', () => {
  it('a premature close is not an error line: debug only', async () => {
    const atInfo = logger('info');
    atInfo.log.error(new Error('premature close'));
    const atDebug = logger('debug');
    atDebug.log.error(Object.assign(new Error('stream closed'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    await flush();
    expect(atInfo.lines).toEqual([]);
    expect(atDebug.lines).toHaveLength(1);
    expect(atDebug.lines[0]).toMatchObject({ level: 20, err: { message: 'stream closed' } });
  });

  it('every other error stays an error', async () => {
    const { log, lines } = logger('info');
    log.error(new Error('relation "files" does not exist'));
    log.error({ err: new Error('premature close') }, 'in an object: still reported');
    await flush();
    expect(lines.map((line) => line.level)).toEqual([50, 50]);
  });

  it('"Server listening at" is dropped only on the pretty console', async () => {
    const plain = logger('info');
    plain.log.info('Server listening at http://127.0.0.1:3000');
    const pretty = logger('info', true);
    pretty.log.info('Server listening at http://127.0.0.1:3000');
    pretty.log.info('something else');
    await flush();
    expect(plain.lines).toHaveLength(1);
    expect(pretty.lines.map((line) => line.msg)).toEqual(['something else']);
  });
});
