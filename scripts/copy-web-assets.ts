// Part of `npm run build`: the market page's files are served as they are (no bundler), from
// beside the compiled routes (src/web/web.routes.ts resolves them relative to itself).
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const from = join(__dirname, '..', 'src', 'web', 'public');
const to = join(__dirname, '..', 'dist', 'src', 'web', 'public');
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
process.stdout.write('copied the market page to dist/src/web/public\n');
