/**
 * Proving worker process: receives circuit inputs over IPC, answers with Groth16 proofs. A child
 * process rather than a worker thread: snarkjs' thread helper (web-worker) takes over any
 * non-main thread that loads it.
 */
import * as snarkjs from 'snarkjs';

interface Job {
  id: number;
  input: Record<string, unknown>;
  wasm: string;
  zkey: string;
}

process.on('message', async (job: Job) => {
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
    process.send!({ id: job.id, proof, publicSignals });
  } catch (e) {
    process.send!({ id: job.id, error: (e as Error).message });
  }
});
process.on('disconnect', () => process.exit(0));
