/** Keeps the store's idea of the terminal's size in step with the terminal (resize events). */
import type { AppStore } from '../store/app-store.js';

export interface SizedStream {
  columns?: number;
  rows?: number;
  on(event: 'resize', listener: () => void): unknown;
  off(event: 'resize', listener: () => void): unknown;
}

export function followTerminalSize(stdout: SizedStream, store: AppStore): () => void {
  const update = () => store.setState({ columns: stdout.columns ?? 80, rows: stdout.rows ?? 24 });
  update();
  stdout.on('resize', update);
  return () => {
    stdout.off('resize', update);
  };
}
