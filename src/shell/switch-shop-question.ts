/**
 * The question before another shop goes on screen while texts are typed or still sending for this one:
 * typed texts are dropped with the shop's data; confirmed ones go on in the background with its key.
 */
import type { Prompt } from '../store/app-store.js';
import { plural } from '../store/counts.js';
import { recipientLabel } from '../text/recipient.js';
import { oneLine } from '../ui-kit/format.js';

type SwitchPrompt = Extract<Prompt, { kind: 'confirm-switch-shop' }>;

export function switchShopQuestion(prompt: SwitchPrompt): string {
  const from = oneLine(prompt.from);
  // The question first: a narrow terminal cuts the end of the line, never what y or n answers.
  const parts: string[] = [`Switch to ${oneLine(prompt.shop)}? y/n ·`];
  const [only] = prompt.sending;
  if (prompt.sending.length === 1 && only) {
    parts.push(
      `1 text to ${recipientLabel(only)} is still being sent for shop ${from}; it goes on in the background.`,
    );
  } else if (prompt.sending.length > 1) {
    parts.push(
      `${prompt.sending.length} texts are still being sent for shop ${from}; they go on in the background.`,
    );
  }
  if (prompt.typed > 0) {
    parts.push(
      `${plural(prompt.typed, 'text')} typed for shop ${from} ${prompt.typed === 1 ? 'is' : 'are'} dropped.`,
    );
  }
  return parts.join(' ');
}
