/** The entries an outbox file holds, read as the inbox reads them ([] when there is no file). */
import { readFile } from 'node:fs/promises';
import { parseOutbox } from '../../../src/outbox/outbox-format.js';

// biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field by the tests
export async function storedEntries(path: string): Promise<any[]> {
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return bytes ? parseOutbox(bytes).entries : [];
}
