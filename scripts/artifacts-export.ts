/**
 * Writes the proving artifacts as a content-addressed tree any static host can serve:
 *
 *   npm run artifacts:export -- --out DIR [--from contracts/generated]
 *
 * DIR gets `<sha256>.zkey`, `<sha256>.wasm` (the same names as the dealer's /v1/artifacts/) and index.json
 * (the dealer's index, URLs relative to DIR). Files already there under their hash are kept: a name is its
 * content. Clients check every file against the VerifierRegistry, so the host needs no trust.
 */
import { copyFile, mkdir, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactFileName } from '../core/artifacts.ts';
import { ArtifactCatalog, type ArtifactIndexRow, sha256File } from '../dealer/artifacts.ts';
import { inputDir, outputDir, parseCli, required, runCli } from '../lib/cli.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ExportResult {
  index: ArtifactIndexRow[];
  written: number;
  kept: number;
  bytes: number;
}

/** Copies every artifact of `from` into `out` under its hash (tmp + rename), then writes index.json. */
export async function exportArtifacts(from: string, out: string): Promise<ExportResult> {
  const catalog = await ArtifactCatalog.scan(from, {
    warn: (m) => process.stderr.write(`artifacts:export: warning: ${m}\n`),
  });
  if (catalog.entries.length === 0)
    throw new Error(
      `${from}: no artifacts (no manifest.json or seal.json; run scripts/contracts/verifiers.ts)`,
    );
  await mkdir(out, { recursive: true });
  let written = 0;
  let kept = 0;
  let bytes = 0;
  for (const f of catalog.files) {
    const to = path.join(out, artifactFileName(f.hash, f.kind));
    const existing = await stat(to).catch(() => undefined);
    if (existing?.size === f.size && (await sha256File(to)) === f.hash) {
      kept++;
      continue;
    }
    const tmp = `${to}.${process.pid}.tmp`;
    await copyFile(f.path, tmp);
    // Checked after the copy: what lands under a hash name must be that hash.
    if ((await sha256File(tmp)) !== f.hash) throw new Error(`${f.path} changed while it was copied`);
    await rename(tmp, to);
    written++;
    bytes += f.size;
  }
  const index = catalog.index('');
  const tmp = path.join(out, `index.json.${process.pid}.tmp`);
  await writeFile(tmp, `${JSON.stringify(index, null, 2)}\n`);
  await rename(tmp, path.join(out, 'index.json'));
  return { index, written, kept, bytes };
}

const USAGE = `usage: npm run artifacts:export -- --out DIR [--from DIR]

Copies the proving artifacts (zkeys, wasms) as DIR/<sha256>.zkey and DIR/<sha256>.wasm, with DIR/index.json
listing them per ruleset and circuit: the same tree the dealer serves under /v1/artifacts/, for any static
host. Players check each file against the hashes the VerifierRegistry holds.
  --out    the folder to write (created if missing)
  --from   the generated artifacts (default contracts/generated: manifest.json and seal.json)`;

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runCli('artifacts:export', async () => {
    const { values } = parseCli({
      name: 'artifacts:export',
      usage: USAGE,
      options: { out: { type: 'string' }, from: { type: 'string' } },
    });
    const out = outputDir('out', required('out', values.out));
    const from = inputDir('from', values.from ?? path.join(ROOT, 'contracts', 'generated'));
    const t0 = performance.now();
    const r = await exportArtifacts(from, out);
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      `${r.index.length} circuits, ${r.written} files written (${(r.bytes / 1e6).toFixed(1)} MB), ` +
        `${r.kept} already there, to ${path.resolve(out)} in ${s} s`,
    );
  });
}
