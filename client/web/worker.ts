/**
 * The prover worker: Groth16 proofs with snarkjs' browser build, off the page's main thread, so the map stays
 * responsive while a turn is proven. It only proves: artifacts arrive already checked against the chain, and
 * the page checks the proof's public signals against its witness plan before sending anything.
 */
import { groth16 } from 'snarkjs';
import { PROVE_STAGES, type ProveRequest, type WorkerReply } from './worker-protocol.ts';

const post = (r: WorkerReply) => (self as unknown as Worker).postMessage(r);

self.addEventListener('message', async (ev: MessageEvent<ProveRequest>) => {
  const { id, circuit, input, wasm, zkey } = ev.data;
  const stage = (label: string) => {
    const i = PROVE_STAGES.indexOf(label as (typeof PROVE_STAGES)[number]);
    if (i >= 0) post({ id, type: 'progress', stage: i, of: PROVE_STAGES.length, label });
  };
  // snarkjs reports its stages through a logger's debug lines; nothing else of its output is kept.
  const logger = { debug: stage, info: () => {}, warn: () => {}, error: () => {} };
  const t0 = performance.now();
  try {
    stage('witness');
    const { proof, publicSignals } = await groth16.fullProve(
      input as never,
      { type: 'mem', data: wasm } as never,
      { type: 'mem', data: zkey } as never,
      logger as never,
    );
    post({ id, type: 'done', proof, publicSignals: publicSignals.map(String), ms: performance.now() - t0 });
  } catch (e) {
    post({ id, type: 'error', message: `${circuit}: ${(e as Error)?.message ?? String(e)}` });
  }
});
