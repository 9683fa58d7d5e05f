/**
 * The shell's screen after the inbox, in tmux: the terminal staff on a shared front-desk box most
 * often run it in. tmux keeps the alternate screen in the pane's own grid and reflows it when the
 * window is resized, so what a headless xterm shows is not enough here: these tests drive a
 * private tmux server (its own socket in a temporary folder, removed afterwards).
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltCli, copyBuiltCli } from './built-cli.js';

let bundle: BuiltCli;
let dir: string;
let socket: string;
let cliPath: string;

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-tmux-');
  dir = bundle.dir;
  socket = join(dir, 'tmux.sock');
  cliPath = bundle.cliPath;
  await writeFile(join(dir, 'bashrc'), "PS1='$ '\n");
});
afterAll(async () => {
  try {
    tmux('kill-server');
  } catch {
    // No server left (every session ended).
  }
  await bundle.remove();
});

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'xdg'),
      LANG: 'C.UTF-8',
      TERM: 'xterm-256color',
      NODE: process.execPath,
      CLI: cliPath,
    },
  });
}

/** Everything the pane holds, history first, without the blank rows below the last text. */
function paneText(session: string): string[] {
  const lines = tmux('capture-pane', '-p', '-S', '-', '-t', session).split('\n');
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines;
}

async function waitForPane(session: string, check: (lines: string[]) => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = paneText(session);
    if (check(lines)) return lines;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}; the pane:\n${lines.slice(-60).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const PHONE = /\+1\d{10}/;
const TYPED = '"$NODE" "$CLI" --demo; echo "[exit=$?]"';

describe('the shell after the inbox, in tmux', () => {
  it.each([
    [80, 24, 120, 40],
    [120, 40, 200, 60],
    [120, 40, 80, 24],
  ])(
    '%i×%i resized to %i×%i, then q: the shell screen and history are as they were',
    async (w1, h1, w2, h2) => {
      const session = `s${w1}x${h1}-${w2}x${h2}`;
      // A shell with a screenful and more of its own lines, some of them already in the history.
      tmux(
        'new-session',
        '-d',
        '-s',
        session,
        '-x',
        String(w1),
        '-y',
        String(h1),
        `seq -f 'shell line %g' 1 60; exec bash --noprofile --rcfile '${join(dir, 'bashrc')}'`,
      );
      const before = await waitForPane(session, (lines) => lines.at(-1) === '$', 'the shell prompt');
      tmux('send-keys', '-t', session, '-l', TYPED);
      tmux('send-keys', '-t', session, 'Enter');
      await waitForPane(session, (lines) => lines.some((line) => PHONE.test(line)), 'the inbox');

      tmux('resize-window', '-t', session, '-x', String(w2), '-y', String(h2));
      // Redrawn at the new size: the frame's rows span the new width exactly.
      await waitForPane(
        session,
        (lines) =>
          lines.filter((line) => [...line].length === w2 && line.startsWith('│')).length > 5 &&
          lines.some((line) => PHONE.test(line)),
        `the inbox redrawn at ${w2}×${h2}`,
      );
      tmux('send-keys', '-t', session, 'q');
      const after = await waitForPane(
        session,
        (lines) => lines.includes('[exit=0]') && lines.at(-1) === '$',
        'the shell prompt after the inbox',
      );

      // Exactly what was there, plus the command line and what the shell printed after it.
      expect(after.filter((line) => PHONE.test(line))).toEqual([]);
      expect(after).toEqual([...before.slice(0, -1), `$ ${TYPED}`, '[exit=0]', '$']);
      tmux('kill-session', '-t', session);
    },
  );
});
