/**
 * The composer's text in the user's own editor ($EDITOR, then $VISUAL, then
 * vi): written to a file only its owner can read (0600, in a 0700 folder of
 * the user's runtime directory), the terminal handed to the editor and taken
 * back, the file read and removed whatever happens. What comes back is user
 * text: the caller filters it like typed text.
 */
import { spawn } from 'node:child_process';
import { lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** More than any text can hold (1,600 characters): a larger file is not read back. */
export const EDITED_FILE_MAX_BYTES = 64 * 1024;

export class EditorError extends Error {
  override name = 'EditorError';
}

/** The editor to run: $EDITOR, then $VISUAL, then vi (a command line, as git reads it). */
export function editorCommand(env: NodeJS.ProcessEnv): string {
  return env.EDITOR?.trim() || env.VISUAL?.trim() || 'vi';
}

/** $XDG_RUNTIME_DIR when it is a real directory of this user that only they can use; else the temp folder. */
async function runtimeDir(env: NodeJS.ProcessEnv): Promise<string> {
  const dir = env.XDG_RUNTIME_DIR;
  if (dir && isAbsolute(dir)) {
    try {
      const stats = await lstat(dir);
      const mine = typeof process.getuid !== 'function' || stats.uid === process.getuid();
      if (stats.isDirectory() && mine && (stats.mode & 0o077) === 0) return dir;
    } catch {
      // Not there: the temp folder, in a private folder of its own.
    }
  }
  return tmpdir();
}

export interface EditOptions {
  env: NodeJS.ProcessEnv;
  /**
   * Gives the terminal to the editor: input no longer read, raw mode, mouse, paste and alternate screen
   * off; the editor starts once the terminal has taken all of that.
   */
  handOver(): void | Promise<void>;
  /** Takes it back and draws the whole screen again. */
  takeBack(): void;
}

/** Runs the editor on `text`; resolves with what the file holds after, or rejects with an EditorError. */
export async function editExternally(text: string, options: EditOptions): Promise<string> {
  const folder = await mkdtemp(join(await runtimeDir(options.env), 'shop-inbox-text-'));
  const file = join(folder, 'text.txt');
  try {
    await writeFile(file, text, { mode: 0o600, flag: 'wx' });
    const command = editorCommand(options.env);
    await options.handOver();
    let status: { code: number | null; error?: Error };
    try {
      status = await new Promise((resolve) => {
        // Through the shell, as git runs it: "code --wait" and "vim -u NONE" are commands with arguments.
        const child = spawn('/bin/sh', ['-c', `${command} "$@"`, command, file], { stdio: 'inherit' });
        child.once('error', (error) => resolve({ code: null, error }));
        child.once('exit', (code) => resolve({ code }));
      });
    } finally {
      options.takeBack();
    }
    if (status.error)
      throw new EditorError(`could not start the editor (${command}): ${status.error.message}`);
    if (status.code !== 0)
      throw new EditorError(`the editor (${command}) exited with status ${status.code ?? 'unknown'}`);
    const buffer = await readFile(file);
    if (buffer.length > EDITED_FILE_MAX_BYTES)
      throw new EditorError(`the edited text is larger than ${EDITED_FILE_MAX_BYTES / 1024} KiB`);
    // Editors end a file with a line break; the text did not have one.
    return buffer.toString('utf8').replace(/\r?\n$/, '');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
