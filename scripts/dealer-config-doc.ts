/**
 * Writes docs/dealer-config.md from the dealer's table of settings (dealer/config-env.ts), or with --check
 * says whether it is current. A test runs the same comparison.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_DOC_FILE, renderConfigDoc } from '../dealer/ops/config-doc.ts';
import { parseCli, runCli } from '../lib/cli.ts';

const USAGE = `usage: node scripts/dealer-config-doc.ts [--check]

Regenerates docs/dealer-config.md (every dealer setting, its environment variable, default and meaning)
from dealer/config-env.ts and dealer/config.default.json.
  --check  write nothing; exit 1 if the file is stale`;

await runCli('dealer-config-doc', () => {
  const { values } = parseCli({
    name: 'dealer-config-doc',
    usage: USAGE,
    options: { check: { type: 'boolean' } },
  });
  const text = renderConfigDoc();
  const rel = path.relative(process.cwd(), CONFIG_DOC_FILE);
  if (values.check) {
    let current = '';
    try {
      current = readFileSync(CONFIG_DOC_FILE, 'utf8');
    } catch {}
    if (current !== text) throw new Error(`${rel} is stale: run node scripts/dealer-config-doc.ts`);
    process.stdout.write(`${rel} is current\n`);
    return;
  }
  writeFileSync(CONFIG_DOC_FILE, text);
  process.stdout.write(`wrote ${rel}\n`);
});
