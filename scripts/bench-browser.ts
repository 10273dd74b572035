/**
 * Browser benchmark (`npm run bench -- browser --ruleset tiny|duel`): the web client's prover worker
 * (client/web/worker.js, as built for the page) proving turns in headless Chromium (/usr/bin/chromium), and
 * the page's bundle size. 10 turn proofs of the circuits bench's full workload (every slot filled, every reveal
 * lane used), artifacts handed to the worker as the page hands them; the time is the worker's own (witness +
 * Groth16), the first (cold: wasm compile) reported apart.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPlayPage } from '../client/web/build.ts';
import { shippedRuleset } from '../core/ruleset/shipped.ts';
import { workloads } from './circuits/bench.ts';
import { ensureBuilt } from './contracts/ensure.ts';
import { readManifest } from './contracts/rulesets.ts';
import { launchChromium } from './lib/chromium.ts';
import { consoleProgress } from './lib/progress.ts';

const RUNS = 10;

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export async function benchBrowser(o: { ruleset: string }): Promise<Record<string, number>> {
  await ensureBuilt([o.ruleset], { progress: consoleProgress({ out: process.stderr }) });
  const turn = readManifest()[o.ruleset]?.verifiers.turn;
  if (!turn) throw new Error(`no turn verifier for ${o.ruleset}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'shroud-bench-browser-'));
  const built = await buildPlayPage(path.join(dir, 'play'));
  // bigints as decimal strings: what snarkjs reads, and what crosses into the page.
  const input = JSON.parse(
    JSON.stringify((await workloads(shippedRuleset(o.ruleset))).turn, (_, v) =>
      typeof v === 'bigint' ? v.toString() : v,
    ),
  );
  const files: Record<string, [string, Buffer]> = {
    '/': ['text/html', Buffer.from('<!doctype html><title>bench</title>')],
    '/worker.js': ['text/javascript', readFileSync(path.join(built.dir, 'worker.js'))],
    '/turn.wasm': ['application/wasm', readFileSync(turn.wasm)],
    '/turn.zkey': ['application/octet-stream', readFileSync(turn.zkey)],
  };
  const server = createServer((req, res) => {
    const f = files[req.url ?? ''];
    if (!f) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    const ms: number[] = await page.evaluate(
      async ({ input, runs }) => {
        const [wasm, zkey] = await Promise.all(
          ['/turn.wasm', '/turn.zkey'].map(async (u) => new Uint8Array(await (await fetch(u)).arrayBuffer())),
        );
        const worker = new Worker('/worker.js', { type: 'module' });
        const out: number[] = [];
        for (let id = 1; id <= runs; id++) {
          out.push(
            await new Promise<number>((resolve, reject) => {
              worker.onmessage = (ev) => {
                const r = ev.data;
                if (r.id !== id || r.type === 'progress') return;
                if (r.type === 'done') resolve(r.ms);
                else reject(new Error(r.message));
              };
              worker.onerror = (e) => reject(new Error(e.message));
              worker.postMessage({ id, circuit: 'turn', input, wasm, zkey });
            }),
          );
        }
        worker.terminate();
        return out;
      },
      { input, runs: RUNS + 1 },
    );
    const [cold, ...warm] = ms;
    return {
      browser_turn_proof_ms_median: Math.round(median(warm)),
      browser_turn_proof_ms_min: Math.round(Math.min(...warm)),
      browser_turn_proof_ms_max: Math.round(Math.max(...warm)),
      browser_turn_proof_ms_cold: Math.round(cold!),
      browser_turn_proofs: warm.length,
      bundle_bytes: built.bytes.bundle,
      page_bytes: built.bytes['play.js'],
      worker_bytes: built.bytes['worker.js'],
      turn_zkey_bytes: files['/turn.zkey']![1].byteLength,
      turn_wasm_bytes: files['/turn.wasm']![1].byteLength,
    };
  } finally {
    await browser.close();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
