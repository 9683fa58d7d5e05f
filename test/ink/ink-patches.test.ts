/**
 * scripts/ink-patches.mjs on a small tree written for each test: which hunks of patches/ node_modules
 * lacks (the build refuses to bundle without them), and a copy with the patches taken out (the
 * benchmark's Ink as published).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assertPatchesApplied, missingHunks, shippedCopy } from '../../scripts/ink-patches.mjs';

const SHIPPED = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n';
const PATCHED = 'export const a = 1;\nexport const b = 20;\nexport const c = 3;\n';
const PATCH = `diff --git a/node_modules/tiny/index.js b/node_modules/tiny/index.js
index 1111111..2222222 100644
--- a/node_modules/tiny/index.js
+++ b/node_modules/tiny/index.js
@@ -1,3 +1,3 @@
 export const a = 1;
-export const b = 2;
+export const b = 20;
 export const c = 3;
diff --git a/node_modules/tiny/added.js b/node_modules/tiny/added.js
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ b/node_modules/tiny/added.js
@@ -0,0 +1 @@
+export const added = true;
`;

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

/** A project with one patch for `tiny`, and `tiny` installed as `index` and (unless undefined) `added` say. */
async function project(index: string, added: string | undefined): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'shop-inbox-patches-'));
  roots.push(root);
  await mkdir(join(root, 'patches'));
  await mkdir(join(root, 'node_modules', 'tiny'), { recursive: true });
  await writeFile(join(root, 'patches', 'tiny+1.0.0.patch'), PATCH);
  await writeFile(
    join(root, 'node_modules', 'tiny', 'package.json'),
    '{ "name": "tiny", "version": "1.0.0" }\n',
  );
  await writeFile(join(root, 'node_modules', 'tiny', 'index.js'), index);
  if (added !== undefined) await writeFile(join(root, 'node_modules', 'tiny', 'added.js'), added);
  // patch-package, which shippedCopy runs from the project, is this project's.
  await mkdir(join(root, 'node_modules', 'patch-package'), { recursive: true });
  await writeFile(
    join(root, 'node_modules', 'patch-package', 'index.js'),
    `import(${JSON.stringify(resolve('node_modules/patch-package/index.js'))});\n`,
  );
  return root;
}

describe('the patches in node_modules', () => {
  it('none missing when every hunk is there, new files too', async () => {
    const root = await project(PATCHED, 'export const added = true;\n');
    expect(await missingHunks(root)).toEqual([]);
    await expect(assertPatchesApplied(root)).resolves.toBeUndefined();
  });

  it('names the hunk a file lacks, and the new file that is not there', async () => {
    const root = await project(SHIPPED, undefined);
    const missing = await missingHunks(root);
    expect(missing).toEqual([
      'node_modules/tiny/index.js @@ -1,3 +1,3 @@ (patches/tiny+1.0.0.patch)',
      'node_modules/tiny/added.js @@ -0,0 +1 @@ (patches/tiny+1.0.0.patch)',
    ]);
    await expect(assertPatchesApplied(root)).rejects.toThrow(
      /node_modules\/tiny\/index\.js @@ -1,3 \+1,3 @@/,
    );
  });

  it('a copy with the patches taken out is the package as published; the project is left patched', async () => {
    const root = await project(PATCHED, 'export const added = true;\n');
    const copy = join(root, 'node_modules', '.cache', 'as-shipped');
    await shippedCopy(copy, root);
    expect(await readFile(join(copy, 'node_modules', 'tiny', 'index.js'), 'utf8')).toBe(SHIPPED);
    await expect(readFile(join(copy, 'node_modules', 'tiny', 'added.js'), 'utf8')).rejects.toThrow();
    expect(await readFile(join(root, 'node_modules', 'tiny', 'index.js'), 'utf8')).toBe(PATCHED);
  });
});
