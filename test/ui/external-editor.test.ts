/**
 * The editor behind ctrl-g, run for real with small scripted editors: which
 * editor ($EDITOR, then $VISUAL, then vi), the terminal handed over and taken
 * back around it, a failing editor leaving the text alone, and the private
 * file gone after, whatever happened.
 */
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditorError, editExternally, editorCommand } from '../../src/ui-kit/external-editor.js';

let home: string;
let runtime: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'shop-inbox-edit-'));
  runtime = join(home, 'run');
  await mkdir(runtime);
  await chmod(runtime, 0o700);
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function script(name: string, body: string): Promise<string> {
  const path = join(home, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

function handOvers() {
  const calls: string[] = [];
  return {
    calls,
    handOver: () => {
      calls.push('hand over');
    },
    takeBack: () => calls.push('take back'),
  };
}

describe('the editor', () => {
  it('is $EDITOR, then $VISUAL, then vi', () => {
    expect(editorCommand({ EDITOR: 'nano', VISUAL: 'code --wait' })).toBe('nano');
    expect(editorCommand({ EDITOR: ' ', VISUAL: 'code --wait' })).toBe('code --wait');
    expect(editorCommand({})).toBe('vi');
  });

  it('$VISUAL edits when $EDITOR is unset: the text comes back, the terminal was handed over and back', async () => {
    const visual = await script('visual.sh', `printf 'from visual: %s\\n' "$(cat "$1")" > "$1"`);
    const terminal = handOvers();
    const edited = await editExternally('hello', {
      env: { VISUAL: visual, XDG_RUNTIME_DIR: runtime },
      ...terminal,
    });
    expect(edited).toBe('from visual: hello');
    expect(terminal.calls).toEqual(['hand over', 'take back']);
    expect(await readdir(runtime)).toEqual([]);
  });

  it('an editor that fails leaves the text alone, says so, and its file is gone too', async () => {
    const failing = await script('fail.sh', 'echo changed > "$1"; exit 3');
    const terminal = handOvers();
    const run = editExternally('keep me', {
      env: { EDITOR: failing, XDG_RUNTIME_DIR: runtime },
      ...terminal,
    });
    await expect(run).rejects.toThrow(EditorError);
    await expect(run).rejects.toThrow(/exited with status 3/);
    expect(terminal.calls).toEqual(['hand over', 'take back']);
    expect(await readdir(runtime)).toEqual([]);
  });

  it('a runtime directory others can use is not used: a private folder of the temp folder is', async () => {
    await chmod(runtime, 0o777);
    const where = join(home, 'where');
    const editor = await script('where.sh', `dirname "$1" > "${where}"`);
    await editExternally('x', { env: { EDITOR: editor, XDG_RUNTIME_DIR: runtime }, ...handOvers() });
    const folder = (await readFile(where, 'utf8')).trim();
    expect(folder.startsWith(`${tmpdir()}/shop-inbox-text-`)).toBe(true);
    expect(existsSync(folder)).toBe(false);
  });
});
