// Rewrites README.md's Configuration table from the variables' declarations
// (server/config-variables.ts): `npm run --silent readme:config`. test/unit-config.test.ts fails while
// the two differ, so the table is never edited by hand.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configTable } from '../server/config-variables.js';

const readme = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../README.md');
const text = fs.readFileSync(readme, 'utf8');
const start = text.indexOf('| Variable | Default | Meaning |');
if (start < 0) throw new Error('README.md has no Configuration table ("| Variable | Default | Meaning |")');
const end = text.indexOf('\n\n', start);
fs.writeFileSync(readme, `${text.slice(0, start)}${configTable()}${text.slice(end)}`);
process.stdout.write(`README.md: Configuration table written (${configTable().split('\n').length - 2} variables)\n`);
