/**
 * zod in the bundle: `import * as z from 'zod'` lets esbuild drop the 60-odd locales that the `z` object
 * (`import { z } from 'zod'`, or the default import) holds, ~500 KiB every start would parse. Here: dist/
 * (built by the tests' global setup) holds zod's English messages and no other locale, and the lint rule
 * (biome.json) refuses the import that would bring them back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

async function bundleFiles(): Promise<Array<{ name: string; text: string }>> {
  const names = ['cli.js', ...(await readdir('dist/chunks')).map((name) => join('chunks', name))];
  return Promise.all(names.map(async (name) => ({ name, text: await readFile(join('dist', name), 'utf8') })));
}

describe('zod in the built CLI', () => {
  it('holds no locale but English', async () => {
    const files = await bundleFiles();
    const zod = files.filter((file) => file.text.includes('node_modules/zod/'));
    expect(zod.length).toBeGreaterThan(0);
    // Each locale is a function of messages; its German and French ones, as esbuild writes them (ASCII).
    for (const file of files) {
      expect(file.text, file.name).not.toContain('Eingabe');
      expect(file.text, file.name).not.toContain('Entr\\xE9e invalide');
      expect(file.text, file.name).not.toMatch(/zod\/v4\/locales\/(?!en\.js)/);
    }
    expect(files.some((file) => file.text.includes('zod/v4/locales/en.js'))).toBe(true);
    // The chunk zod is in was 702 KiB with every locale.
    for (const file of zod) expect(file.text.length, file.name).toBeLessThan(300 * 1024);
  });

  it('lint refuses zod’s z object, named or default, and takes the namespace import', async () => {
    const dir = await mkdtemp(join(resolve('src'), '.zod-import-probe-'));
    try {
      const lint = async (source: string) => {
        const file = join(dir, 'probe.ts');
        await writeFile(file, source);
        return spawnSync(process.execPath, [resolve('node_modules/@biomejs/biome/bin/biome'), 'lint', file], {
          encoding: 'utf8',
        });
      };
      const named = await lint("import { z } from 'zod';\nexport const name = z.string();\n");
      expect(named.status).not.toBe(0);
      expect(named.stdout + named.stderr).toContain("import * as z from 'zod'");
      const byDefault = await lint("import z from 'zod';\nexport const name = z.string();\n");
      expect(byDefault.status).not.toBe(0);
      const namespace = await lint(
        "import * as z from 'zod';\nimport type { ZodType } from 'zod';\nexport const name: ZodType = z.string();\n",
      );
      expect(namespace.status, namespace.stdout + namespace.stderr).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
