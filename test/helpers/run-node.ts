/** Runs a repository script in a child Node process, as a user would run the CLI: its exit code and output. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `node <ROOT>/<file> ...args` from the repository root, with `env` over the process's (SHROUD_DEBUG cleared, so an
 * error prints as the user sees it); killed after `timeoutMs` (60 s).
 */
export function runNode(
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
): Promise<NodeRun> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(ROOT, file), ...args], {
      cwd: ROOT,
      env: { ...process.env, SHROUD_DEBUG: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
