/**
 * What `login` and `status` say about a key's mode, and how they learn it:
 * the same probe as the inbox (src/api/key-mode-probe.ts), its clear answer
 * remembered for the inbox's next start (src/config/key-mode-file.ts).
 */
import type { HttpShopClient } from '../api/client.js';
import type { KeyModeAnswer } from '../api/key-mode-probe.js';
import type { KeyModeMemory } from '../config/key-mode-file.js';

/** Asks the shop what the key may do; a clear answer is remembered (a file that cannot be written is no error). */
export async function learnKeyMode(client: HttpShopClient, memory: KeyModeMemory): Promise<KeyModeAnswer> {
  const answer = await client.probeKeyMode();
  if (answer.mode !== 'unknown')
    await memory.remember({ mode: answer.mode, how: 'probe', at: Date.now() }).catch(() => {});
  return answer;
}

/** "write: …", "read-only: …" or "unknown: why", in one line. */
export function describeKeyMode(answer: KeyModeAnswer): string {
  switch (answer.mode) {
    case 'write':
      return 'write: texts, reply drafts and approvals can be sent';
    case 'read':
      return "read-only: turn on write mode in the shop's API settings to text, draft and approve";
    case 'unknown':
      return `unknown: ${answer.why}`;
  }
}
