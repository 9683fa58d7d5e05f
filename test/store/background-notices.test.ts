/**
 * What the status line says: the newest notice, except that one the inbox gives of its own accord (a file it
 * could not keep, the key's mode, other terminals) does not cover an error, which staff must see ("Not sent to
 * …" went under "Read and done marks could not be kept" when a full disk failed both). The message log keeps
 * every notice either way.
 */
import { describe, expect, it } from 'vitest';
import { createAppStore, type Notice } from '../../src/store/app-store.js';

const notice = (text: string, tone: Notice['tone'], background = false): Notice => ({
  text,
  tone,
  at: 1,
  ...(background ? { background: true as const } : {}),
});

describe('a notice of the inbox’s own accord', () => {
  it('goes to the log only while an error is on the status line, and takes the line otherwise', () => {
    const store = createAppStore();
    const marks = notice('Read and done marks could not be kept (ENOSPC).', 'warning', true);
    store.setState({ notice: marks });
    expect(store.getState().notice).toBe(marks);

    const failed = notice('Not sent to Sam Patel (+19715550193): the disk is full.', 'error');
    store.setState({ notice: failed });
    const again = notice('Read and done marks could not be kept (ENOSPC).', 'warning', true);
    const others = notice('Also open in 1 other terminal.', 'info', true);
    store.setState({ notice: again, presence: { others: 1, composingElsewhere: [] } });
    store.setState(() => ({ notice: others }));
    // The error stays; the rest of each update is applied; the log has all four, in order.
    expect(store.getState().notice).toBe(failed);
    expect(store.getState().presence.others).toBe(1);
    expect(store.getState().log).toEqual([marks, failed, again, others]);

    // A background error does take the line; so does anything staff's own doing says.
    const keyRefused = notice('The service refused this key.', 'error', true);
    store.setState({ notice: keyRefused });
    expect(store.getState().notice).toBe(keyRefused);
    const sent = notice('Sent to Sam Patel (+19715550193).', 'success');
    store.setState({ notice: sent });
    expect(store.getState().notice).toBe(sent);
    // With no error showing, a background notice shows.
    store.setState({ notice: again });
    expect(store.getState().notice).toBe(again);
  });
});
