/**
 * Read and done survive restarts: the marks kept for this shop and key are
 * merged into the store at start, and every change is kept again (a burst of
 * changes, one write). A memory that cannot be read is said once, as a
 * warning; the inbox goes on without it.
 */
import type { ConversationMarksMemory } from '../config/conversation-marks-file.js';
import type { AppStore } from '../store/app-store.js';
import { mergeMarks } from '../store/conversation-marks.js';

/** Changes within this long are kept in one write. */
const SAVE_DELAY_MS = 250;

export function keepConversationMarks(
  store: AppStore,
  memory: ConversationMarksMemory,
  now: () => number,
): () => void {
  let stopped = false;
  let loaded = false;
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    timer = undefined;
    void memory.save(store.getState().conversations).catch((error: unknown) => {
      store.setState({
        notice: {
          text: `Read and done marks could not be kept (${(error as Error).message}); they last until the inbox closes.`,
          tone: 'warning',
          at: now(),
          background: true,
        },
      });
    });
  };
  const stop = store.subscribe((state, previous) => {
    if (!loaded || stopped || state.conversations === previous.conversations) return;
    timer ??= setTimeout(save, SAVE_DELAY_MS);
  });
  void memory.load().then((kept) => {
    if (stopped) return;
    loaded = true;
    if ('problem' in kept) {
      store.setState({
        notice: { text: `Read and done: ${kept.problem}.`, tone: 'warning', at: now(), background: true },
      });
      return;
    }
    const mine = store.getState().conversations;
    const merged = mergeMarks(mine, kept.marks);
    if (merged !== mine) store.setState({ conversations: merged });
    // What this terminal marked before the file was read is kept too.
    if (mergeMarks(kept.marks, mine) !== kept.marks) timer ??= setTimeout(save, SAVE_DELAY_MS);
  });
  return () => {
    stopped = true;
    stop();
    // The last marks are kept on the way out (a quit right after e).
    if (timer) {
      clearTimeout(timer);
      save();
    }
  };
}
