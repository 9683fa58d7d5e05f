import stripAnsi from 'strip-ansi';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/** At most this many failures are named; the rest are counted. */
const MAX_NAMED = 20;
/** Each failure's line is cut to this many characters. */
const MAX_LINE = 400;

/**
 * Prints one plain closing line, "tests: N passed, N failed, N skipped", that CI
 * logs and humans can read without knowing vitest's own summary format; above it,
 * a "failed: " line per failed test (its file, its name and the first line of its
 * first error). CI keeps only the end of a long log: without these lines a flaky
 * failure in an earlier run would be a count without a name.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    let passed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const testModule of testModules) {
      const file = testModule.relativeModuleId;
      const tests = [...testModule.children.allTests()];
      // A file that failed with no failed test: it did not load, or a hook of its own failed.
      if (testModule.state() === 'failed' && !tests.some((test) => test.result().state === 'failed'))
        failures.push(failureLine(file, '(the file)', testModule.errors()[0]));
      for (const test of tests) {
        const result = test.result();
        if (result.state === 'passed') passed += 1;
        else if (result.state === 'failed')
          failures.push(failureLine(file, test.fullName, result.errors?.[0]));
        else skipped += 1;
      }
    }
    for (const error of unhandledErrors)
      failures.push(failureLine('(unhandled)', error.name ?? 'Error', error));
    process.stdout.write(summaryText(passed, failures, skipped));
  }
}

export function failureLine(file: string, name: string, error: { message?: string } | undefined): string {
  const message = firstLine(error?.message ?? '');
  return cut(`failed: ${file} > ${name}${message ? ` — ${message}` : ''}`);
}

export function summaryText(passed: number, failures: readonly string[], skipped: number): string {
  const named = failures.slice(0, MAX_NAMED);
  const more = failures.length - named.length;
  const lines = [...named, ...(more > 0 ? [`failed: … and ${more} more`] : [])];
  return `\n${lines.map((line) => `${line}\n`).join('')}tests: ${passed} passed, ${failures.length} failed, ${skipped} skipped\n`;
}

function firstLine(text: string): string {
  const lines = stripAnsi(text)
    .split(/\r?\n/)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: what is left of them, on one line
    .map((line) => line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim());
  return lines.find((line) => line !== '') ?? '';
}

function cut(line: string): string {
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE - 1)}…`;
}
