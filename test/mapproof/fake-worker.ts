/**
 * A stand-in proving worker for the pool tests (dealer/mapproof/pool.ts speaks the same IPC as worker.ts):
 * logs `<pid> <job id>` to `input.log` when a job starts, answers after `input.ms` with its pid as the only
 * public signal, or exits with code 7 on a job with `input.die` (a job that kills its worker, e.g. an OOM).
 */
import { appendFileSync } from 'node:fs';

interface Job {
  id: number;
  input: { log: string; ms: number; die?: boolean };
}

process.on('message', (job: Job) => {
  appendFileSync(job.input.log, `${process.pid} ${job.id}\n`);
  if (job.input.die) process.exit(7);
  setTimeout(() => {
    process.send!({ id: job.id, proof: { fake: true }, publicSignals: [String(process.pid)] });
  }, job.input.ms);
});
process.on('disconnect', () => process.exit(0));
