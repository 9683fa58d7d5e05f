/**
 * The quit question names whom the texts left behind are for (typed and not sent, or still sending), the
 * question itself first so that a narrow terminal never cuts what y or n answers.
 */
import { describe, expect, it } from 'vitest';
import { quitQuestion } from '../../src/shell/quit-question.js';

const ray = { name: 'Ray Whitaker', phone: '+15035550117' };
const renee = { name: 'Renée Dubois', phone: '+15035550142' };

describe('the quit question', () => {
  it('names each text by whom it is for, as far as the inbox knows', () => {
    expect(quitQuestion({ kind: 'confirm-quit', unsent: 1, typed: [renee], sending: [] })).toBe(
      'Quit anyway? y/n · a text to Renée Dubois (+15035550142) is typed, not sent',
    );
    expect(quitQuestion({ kind: 'confirm-quit', unsent: 3, typed: [renee, undefined], sending: [ray] })).toBe(
      'Quit anyway? y/n · 2 texts to Renée Dubois (+15035550142) are typed, not sent · a text to Ray Whitaker (+15035550117) is still sending',
    );
    expect(quitQuestion({ kind: 'confirm-quit', unsent: 1, typed: [undefined], sending: [] })).toBe(
      'Quit anyway? y/n · a text is typed, not sent',
    );
    expect(quitQuestion({ kind: 'confirm-quit', unsent: 2, typed: [], sending: [ray, renee] })).toBe(
      'Quit anyway? y/n · 2 texts to Ray Whitaker (+15035550117), Renée Dubois (+15035550142) are still sending',
    );
  });

  it('shows a name from the server as every notice does: no escape sequence gets through', () => {
    const hostile = { name: 'PRIZE\u001b[2J DEPT\r\u0007', phone: '+19715550150' };
    const question = quitQuestion({ kind: 'confirm-quit', unsent: 1, typed: [hostile], sending: [] });
    expect(question).not.toMatch(/\p{Cc}/u);
    expect(question).toContain('(+19715550150) is typed, not sent');
  });
});
