import { expect, it } from 'vitest';
import { failureLine, summaryText } from './summary-reporter.js';

it('names a failure by file, test and the first line of its error, without escapes, on one bounded line', () => {
  const line = failureLine('test/e2e/a.test.ts', 'a > b', {
    message: '\n\u001b[31mexpected\u001b[39m 1\tto be 2\nsecond line',
  });
  expect(line).toBe('failed: test/e2e/a.test.ts > a > b — expected 1 to be 2');
  expect(failureLine('f.ts', 'n', undefined)).toBe('failed: f.ts > n');
  const long = failureLine('f.ts', 'n', { message: 'x'.repeat(5_000) });
  expect(long.length).toBe(400);
  expect(long.endsWith('…')).toBe(true);
});

it('ends with the counts line CI reads, the failures named above it, twenty at most', () => {
  const failures = Array.from({ length: 23 }, (_, i) => `failed: f${i}.ts > n`);
  const text = summaryText(5, failures, 2);
  const lines = text.trim().split('\n');
  expect(lines.at(-1)).toBe('tests: 5 passed, 23 failed, 2 skipped');
  expect(lines.slice(0, 20)).toEqual(failures.slice(0, 20));
  expect(lines[20]).toBe('failed: … and 3 more');
  expect(summaryText(3, [], 0)).toBe('\ntests: 3 passed, 0 failed, 0 skipped\n');
});
