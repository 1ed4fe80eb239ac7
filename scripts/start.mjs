#!/usr/bin/env node
// `npm start`: build the client when it is missing or older than its sources, then run the server
// (TypeScript through tsx, in this process so signals reach the server's graceful shutdown directly).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist', '.build-stamp');
const clientSources = ['src/client', 'src/shared', 'sw', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function clientIsStale() {
  if (process.env.CLIENT_DIST) return false; // an operator-provided build is used as it is
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return clientSources.some((source) => newestMtime(join(root, source)) > built);
}

if (clientIsStale()) {
  console.log('Building the client (first start or sources changed)…');
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, new Date().toISOString());
}

const { register } = await import('tsx/esm/api');
register();
await import('../src/server/main.ts');
