/** Where a subcommand reports: results on stdout, progress of the long steps on stderr. */
import { consoleProgress, type Progress } from '../lib/progress.ts';

export interface Ui {
  progress: Progress;
  /** A result line (attestations, the verdict): stdout. */
  print(line: string): void;
}

export const consoleUi = (): Ui => ({
  progress: consoleProgress({ out: process.stderr }),
  print: (line) => process.stdout.write(`${line}\n`),
});
