/**
 * The prover worker: Groth16 proofs with snarkjs' browser build, off the page's main thread, so the map stays
 * responsive while a turn is proven. It proves, and checks the game's ZK map proof (worker-verify.ts) with the
 * keys the page sends (the ones it was built with): artifacts arrive already checked against the chain, and the
 * page checks the proof's public signals against its witness plan before sending anything.
 */
import { groth16 } from 'snarkjs';
import { PROVE_STAGES, type ProveRequest, type WorkerReply, type WorkerRequest } from './worker-protocol.ts';
import { handleVerifyMapProof } from './worker-verify.ts';

const post = (r: unknown) => (self as unknown as Worker).postMessage(r);

async function prove(req: ProveRequest): Promise<void> {
  const { id, circuit, input, wasm, zkey } = req;
  const reply = (r: WorkerReply) => post(r);
  const stage = (label: string) => {
    const i = PROVE_STAGES.indexOf(label as (typeof PROVE_STAGES)[number]);
    if (i >= 0) reply({ id, type: 'progress', stage: i, of: PROVE_STAGES.length, label });
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
    reply({ id, type: 'done', proof, publicSignals: publicSignals.map(String), ms: performance.now() - t0 });
  } catch (e) {
    reply({ id, type: 'error', message: `${circuit}: ${(e as Error)?.message ?? String(e)}` });
  }
}

self.addEventListener('message', async (ev: MessageEvent<WorkerRequest>) => {
  if (ev.data.type === 'verify-map-proof') post(await handleVerifyMapProof(ev.data));
  else await prove(ev.data);
});
