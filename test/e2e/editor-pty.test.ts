/**
 * ctrl-g in the composer, through the built CLI in a real pseudo-terminal:
 * the text goes to the user's editor ($EDITOR before $VISUAL) in a 0600 file
 * of a 0700 folder in the runtime directory, the terminal is handed over
 * (main screen, cooked mode, no mouse or bracketed paste, keys read by the
 * editor, not the inbox) and taken back (the whole screen drawn again), the
 * edited text is filtered like typed text, and the file is gone after.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSim } from '../support/sim.js';
import { type BuiltCli, copyBuiltCli, terminalEnv } from './built-cli.js';
import { type PtyTerminal, spawnInTerminal } from './pty-terminal.js';

/** A scripted editor: notes what it was given, waits for a line typed in the terminal, rewrites the file. */
const EDITOR_SCRIPT = `
const fs = require('node:fs');
const path = require('node:path');
const file = process.argv[2];
fs.writeFileSync(process.env.EDITOR_LOG, JSON.stringify({
  file,
  mode: fs.statSync(file).mode & 0o777,
  folderMode: fs.statSync(path.dirname(file)).mode & 0o777,
  before: fs.readFileSync(file, 'utf8'),
}));
process.stdout.write('SCRIPTED EDITOR: type a word, then enter\\n');
process.stdin.once('data', (data) => {
  fs.writeFileSync(file, 'Edited: ' + data.toString().trim() + '\\nline two\\u0007\\u001b[2J\\n');
  process.exit(0);
});
`;

let bundle: BuiltCli;
let home: string;
const terminals: PtyTerminal[] = [];

beforeAll(async () => {
  bundle = await copyBuiltCli('shop-inbox-editor-');
});
afterAll(async () => {
  await bundle.remove();
});
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-editor-home-'));
});
afterEach(async () => {
  for (const terminal of terminals.splice(0)) terminal.kill();
  await rm(home, { recursive: true, force: true });
});

describe('the text in your editor', () => {
  it('ctrl-g hands the terminal to $EDITOR and takes it back with the edited text; the file is gone', async () => {
    const s = await startSim();
    const script = join(home, 'editor.cjs');
    await writeFile(script, EDITOR_SCRIPT);
    const runtime = join(home, 'run');
    await mkdir(runtime);
    await chmod(runtime, 0o700);
    const log = join(home, 'editor.json');
    const t = spawnInTerminal(process.execPath, [bundle.cliPath], {
      cols: 100,
      rows: 30,
      env: terminalEnv(home, {
        SHOP_API_BASE_URL: s.baseUrl,
        SHOP_API_KEY: s.sim.tokens.write,
        XDG_RUNTIME_DIR: runtime,
        EDITOR: `"${process.execPath}" "${script}"`,
        // $EDITOR comes first: this one would fail.
        VISUAL: 'false',
        EDITOR_LOG: log,
      }),
    });
    terminals.push(t);
    await t.waitForText(/Inbox — open leads \(\d+\)/, 15_000);
    t.send('c');
    // Ready once the lead is read (its consent shows); before, ctrl-g says to wait.
    await t.waitForText(/To .+ characters[\s\S]*(consent given|consent not given|no consent record)/);
    t.send('Draft text');
    await t.waitForText('Draft text');
    expect(t.isAlternateScreen()).toBe(true);

    t.send('\u0007');
    await t.waitForText('SCRIPTED EDITOR: type a word', 10_000);
    // Handed over: the main screen, no bracketed paste, no mouse reports, the terminal in cooked mode.
    expect(t.isAlternateScreen()).toBe(false);
    expect(t.isBracketedPaste()).toBe(false);
    expect(t.output().lastIndexOf('\u001B[?1000l')).toBeGreaterThan(t.output().lastIndexOf('\u001B[?1000h'));
    const given = JSON.parse(await readFile(log, 'utf8')) as {
      file: string;
      mode: number;
      folderMode: number;
      before: string;
    };
    expect(given.before).toBe('Draft text');
    expect(given.mode).toBe(0o600);
    expect(given.folderMode).toBe(0o700);
    expect(given.file.startsWith(`${runtime}/`)).toBe(true);

    // The editor reads this line (echoed by the terminal in cooked mode), not the inbox.
    t.send('ok\r');
    await t.waitForText('Edited: ok', 10_000);
    await t.waitForText('Back from the editor.');
    // Taken back: the alternate screen, bracketed paste and mouse on, the whole screen drawn again.
    expect(t.isAlternateScreen()).toBe(true);
    expect(t.isBracketedPaste()).toBe(true);
    expect(t.output().lastIndexOf('\u001B[?1000h')).toBeGreaterThan(t.output().lastIndexOf('\u001B[?1000l'));
    const screen = t.screenText();
    expect(screen).toMatch(/billing active · texting active/);
    expect(screen).toMatch(/1 Inbox {3}2 Thread/);
    expect(screen).toContain('Edited: ok');
    expect(screen).toContain('line two[2J');
    expect(screen).not.toContain('SCRIPTED EDITOR');
    expect(existsSync(given.file)).toBe(false);
    expect(existsSync(join(given.file, '..'))).toBe(false);

    // Keys are the inbox's again: the edited text is the composer's, and more can be typed.
    t.send('!');
    await t.waitForText('line two[2J!');
    expect(screen).toMatch(/\d+ characters · 1 segment \(GSM-7\)/);
  });
});
