// Ink and Yoga as this project runs them: patched in node_modules by patch-package at install
// (patches/*.patch, each change and why in patches/README.md), so that the tests, which load
// node_modules, and the bundle run the same code. Here: whether the patches are in node_modules
// (the build refuses to bundle without them), and a copy of the packages as shipped (the
// benchmark's bare Ink reference).
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

const PATCH_DIR = 'patches';

/** The patch files, as patch-package names them: `<package>+<version>.patch`. */
async function patchFiles(root) {
  const names = await readdir(join(root, PATCH_DIR));
  return names.filter((name) => name.endsWith('.patch')).map((name) => join(root, PATCH_DIR, name));
}

/** Each hunk of a unified diff as the file reads after it: its context and added lines. */
function hunksAfter(patchText) {
  const hunks = [];
  let file;
  let hunk;
  for (const line of patchText.split('\n')) {
    if (line.startsWith('+++ ')) {
      file = line.slice(4).replace(/^b\//, '');
      hunk = undefined;
    } else if (line.startsWith('@@')) {
      hunk = { file, header: line, lines: [] };
      hunks.push(hunk);
    } else if (hunk && (line.startsWith(' ') || line.startsWith('+'))) {
      hunk.lines.push(line.slice(1));
    }
  }
  return hunks.map(({ file: path, header, lines }) => ({ file: path, header, text: lines.join('\n') }));
}

/**
 * The hunks of patches/ that node_modules does not hold (empty when every patch is applied): a
 * hunk is applied when its file contains the hunk's text as it reads after the change.
 */
export async function missingHunks(root = process.cwd()) {
  const missing = [];
  for (const patch of await patchFiles(root)) {
    for (const hunk of hunksAfter(await readFile(patch, 'utf8'))) {
      const source = await readFile(join(root, hunk.file), 'utf8').catch(() => undefined);
      if (source === undefined || !source.includes(hunk.text))
        missing.push(`${hunk.file} ${hunk.header} (${PATCH_DIR}/${patch.split(/[\\/]/).pop()})`);
    }
  }
  return missing;
}

/** Fails, naming each hunk, unless node_modules holds every patch of patches/. */
export async function assertPatchesApplied(root = process.cwd()) {
  const missing = await missingHunks(root);
  if (missing.length > 0)
    throw new Error(
      `node_modules lacks these changes of ${PATCH_DIR}/ (npm install applies them with patch-package; ` +
        `"npx patch-package --error-on-fail" says why one does not apply):\n  ${missing.join('\n  ')}`,
    );
}

/**
 * Copies the patched packages into `into`/node_modules and takes the patches out there with
 * patch-package --reverse: the packages as they were published. Bare imports from the copy that
 * it does not hold (Ink's own dependencies) resolve from the project's node_modules when `into`
 * lies inside it.
 */
export async function shippedCopy(into, root = process.cwd()) {
  await rm(into, { recursive: true, force: true });
  await mkdir(join(into, 'node_modules'), { recursive: true });
  await cp(join(root, PATCH_DIR), join(into, PATCH_DIR), { recursive: true });
  await writeFile(join(into, 'package.json'), '{ "private": true }\n');
  for (const patch of await patchFiles(root)) {
    const name = patch
      .split(/[\\/]/)
      .pop()
      .replace(/\+[^+]*\.patch$/, '')
      .replace('+', '/');
    await cp(join(root, 'node_modules', name), join(into, 'node_modules', name), { recursive: true });
  }
  const reverse = spawnSync(
    process.execPath,
    [resolve(root, 'node_modules/patch-package/index.js'), '--reverse', '--error-on-fail'],
    { cwd: into, encoding: 'utf8' },
  );
  if (reverse.status !== 0)
    throw new Error(`could not take the patches out of a copy:\n${reverse.stdout}${reverse.stderr}`);
}
