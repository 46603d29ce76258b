// The staff pages' first load (docs/console.md "Weight"): the script, stylesheet and page as the server
// sends them, raw and compressed (gzip -9 and brotli, as a reverse proxy compresses them), against the
// budget of 200 KB compressed.
//
//   npx tsx bench/console-size.ts
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { bundleConsole } from '../console/build.js';

const BUDGET = 200 * 1024;
const built = await bundleConsole();
let gzip = 0;
let brotli = 0;
for (const [name, text] of Object.entries(built)) {
  const raw = Buffer.from(text);
  const g = gzipSync(raw, { level: 9 }).length;
  const b = brotliCompressSync(raw).length;
  gzip += g;
  brotli += b;
  console.log(
    `${name.padEnd(11)} ${String(raw.length).padStart(7)} B raw  ${String(g).padStart(6)} B gzip  ${String(b).padStart(6)} B brotli`,
  );
}
console.log(
  `first load  ${gzip} B gzip, ${brotli} B brotli: ${((gzip / BUDGET) * 100).toFixed(1)} % of the 200 KB budget`,
);
