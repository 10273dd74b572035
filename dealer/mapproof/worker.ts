/** Proving worker: receives circuit inputs, answers with Groth16 proofs (one snarkjs instance per thread). */
import { parentPort } from 'node:worker_threads';
import * as snarkjs from 'snarkjs';

interface Job {
  id: number;
  input: Record<string, unknown>;
  wasm: string;
  zkey: string;
}

parentPort!.on('message', async (job: Job) => {
  try {
    const { proof, publicSignals } = await snarkjs.groth16.fullProve(
      job.input,
      job.wasm,
      job.zkey,
      undefined,
      undefined,
      {
        singleThread: true,
      },
    );
    parentPort!.postMessage({ id: job.id, proof, publicSignals });
  } catch (e) {
    parentPort!.postMessage({ id: job.id, error: (e as Error).message });
  }
});
