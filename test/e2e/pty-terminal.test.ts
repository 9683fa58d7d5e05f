/**
 * The test terminal reads what is on screen, and only that: after a program on the alternate screen drew a
 * wide frame and the terminal narrowed, the cells past the new edge stay in xterm's rows (the alternate
 * buffer keeps no scrollback, so its rows are not cut), out of sight. A read of the whole row showed them,
 * and a resize test once failed on a customer's number seen past the edge of a correct screen.
 */
import { afterEach, expect, it } from 'vitest';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

const terminals: PtyTerminal[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.kill();
});

// Draws a 100-column row on the alternate screen; once the terminal narrows, clears the row and draws a short one.
const PROGRAM = `
process.stdout.write('\\u001b[?1049h\\u001b[H' + 'wide '.repeat(19) + '+15035550179');
process.on('SIGWINCH', () => {
  process.stdout.write('\\u001b[H\\u001b[2Knarrow' + '\\u001b[2;1Hdone');
  setTimeout(() => process.exit(0), 50);
});
setTimeout(() => {}, 10_000);
`;

it('reads a row as wide as the screen, not the cells an earlier, wider frame left past the edge', async () => {
  const terminal = spawnInTerminal(process.execPath, ['-e', PROGRAM], {
    cols: 120,
    rows: 5,
    env: process.env,
  });
  terminals.push(terminal);
  await terminal.waitForText('+15035550179');
  terminal.pty.resize(73, 5);
  terminal.term.resize(73, 5);
  await terminal.waitForText('done');
  expect(terminal.lines()[0]).toBe('narrow');
  expect(terminal.screenText()).not.toContain('wide');
  expect(terminal.unwrappedText()).not.toContain('+1503');
});
