/**
 * Before a command writes (send, approve): a key known to be read-only is
 * refused here, before anything is written to the outbox or sent. Known means
 * read_only set in config.json, the shop's answer now (the same question the
 * inbox asks: a write that changes nothing), or, when the shop gives no clear
 * answer now, its last one remembered for this key.
 */
import { KeyModeFile } from '../config/key-mode-file.js';
import { EXIT } from './exit-codes.js';
import { learnKeyMode } from './key-mode-words.js';
import { CommandFailure, type ShopVerbContext } from './verb-runner.js';

const TURN_ON = "turn on write mode in the shop's API settings";

export async function refuseReadOnlyKey(context: ShopVerbContext, what: string): Promise<void> {
  if (context.settings.readOnly)
    throw new CommandFailure(
      `read_only is set in config.json: this user's commands never write, so ${what}. Remove "read_only" from config.json (or run \`shop-inbox login\` again without --read-only) to write.`,
      'read_only',
      EXIT.notAllowed,
    );
  const memory = KeyModeFile.forKey(context.env, context.settings.baseUrl, context.settings.apiKey);
  const remembered = memory.recall();
  const answer = await learnKeyMode(context.client, memory);
  if (answer.mode === 'read')
    throw new CommandFailure(
      `this key is read-only: ${what}. To write, ${TURN_ON}.`,
      'read_only',
      EXIT.notAllowed,
    );
  if (answer.mode === 'unknown' && remembered?.mode === 'read')
    throw new CommandFailure(
      `this key was read-only when the shop last said (${new Date(remembered.at).toISOString()}), and it could not tell now (${answer.why}): ${what}. To write, ${TURN_ON}; \`shop-inbox status\` asks again.`,
      'read_only',
      EXIT.notAllowed,
    );
}
