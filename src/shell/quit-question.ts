/**
 * The question before quitting while texts are typed and not sent, or still sending: whom each is for,
 * as every notice names a customer (two can share a name).
 */
import type { Prompt } from '../store/app-store.js';
import { type Recipient, recipientLabel } from '../text/recipient.js';

type QuitPrompt = Extract<Prompt, { kind: 'confirm-quit' }>;

const to = (recipients: ReadonlyArray<Recipient | undefined>) => {
  const known = recipients.filter((recipient): recipient is Recipient => recipient !== undefined);
  return known.length > 0 ? ` to ${known.map(recipientLabel).join(', ')}` : '';
};

export function quitQuestion(prompt: QuitPrompt): string {
  // The question first: a narrow terminal cuts the end of the line, never what y or n answers.
  const parts = ['Quit anyway? y/n'];
  const { typed, sending } = prompt;
  if (typed.length === 1) parts.push(`a text${to(typed)} is typed, not sent`);
  else if (typed.length > 1) parts.push(`${typed.length} texts${to(typed)} are typed, not sent`);
  if (sending.length === 1) parts.push(`a text${to(sending)} is still sending`);
  else if (sending.length > 1) parts.push(`${sending.length} texts${to(sending)} are still sending`);
  return parts.join(' · ');
}
