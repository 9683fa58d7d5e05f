/**
 * A question to the person at the terminal (send, approve): asked on stderr,
 * answered on stdin, only when both are a terminal and --json is not given.
 * Otherwise nothing is asked, and a command that needs an answer refuses.
 */
import { createInterface } from 'node:readline';

export function canAsk(json: boolean): boolean {
  return !json && process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/** The line typed, trimmed; undefined when the input ended or ctrl-c was pressed (taken as no). */
export function ask(question: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    let answered = false;
    const finish = (answer: string | undefined) => {
      if (answered) return;
      answered = true;
      lines.close();
      resolve(answer?.trim());
    };
    lines.on('SIGINT', () => {
      process.stderr.write('\n');
      finish(undefined);
    });
    lines.on('close', () => finish(undefined));
    lines.question(question, (answer) => finish(answer));
  });
}
