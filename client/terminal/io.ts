/**
 * Line-by-line terminal input for the human planner. Lines are queued as they arrive, so a script piped to
 * stdin works as well as a person typing: each prompt takes the next line, whenever it came.
 */
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

export interface TerminalIO {
  /** Writes `prompt` (no newline) and resolves the next input line, or null once the input ended. */
  ask(prompt: string): Promise<string | null>;
  /** Writes `text` and a newline. */
  print(text: string): void;
}

export interface LineTerminal extends TerminalIO {
  close(): void;
}

/**
 * A TerminalIO over streams (stdin/stdout by default). When the input is not a terminal, each line read is
 * echoed after its prompt, so a log of a scripted game reads like a session.
 */
export function lineTerminal(
  input: Readable & { isTTY?: boolean } = process.stdin,
  output: Writable = process.stdout,
): LineTerminal {
  const rl = createInterface({ input, terminal: false });
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  rl.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else lines.push(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const w of waiting.splice(0)) w(null);
  });
  const echo = !input.isTTY;
  return {
    async ask(prompt) {
      output.write(prompt);
      const line =
        lines.length > 0
          ? lines.shift()!
          : ended
            ? null
            : await new Promise<string | null>((resolve) => waiting.push(resolve));
      if (echo) output.write(`${line ?? '(end of input)'}\n`);
      return line;
    },
    print(text) {
      output.write(`${text}\n`);
    },
    close() {
      rl.close();
    },
  };
}
