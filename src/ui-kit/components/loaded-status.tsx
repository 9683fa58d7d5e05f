/** One line under a pane's title: loading, the age of what is shown, or why the last refresh failed. */

import { explainApiError } from '../../api/explain-error.js';
import type { Loaded } from '../../store/app-store.js';
import { useClockNow, useTheme } from '../app-context.js';
import { updatedAgo } from '../format.js';
import { Text } from './text.js';

/** The part of a Loaded that LoadedStatus shows, for a narrow (shallow-compared) selection. */
export const statusOf = ({ updatedAt, loading, error }: Loaded<unknown>) => ({ updatedAt, loading, error });

export function LoadedStatus({
  loaded,
}: {
  loaded: Pick<Loaded<unknown>, 'updatedAt' | 'loading' | 'error'>;
}) {
  const theme = useTheme();
  const now = useClockNow();
  if (loaded.error && (loaded.updatedAt === undefined || loaded.error.at >= loaded.updatedAt)) {
    return (
      <Text color={theme.warning} wrap="truncate-end">
        {explainApiError({ ...loaded.error, local: false })}
        {loaded.updatedAt !== undefined ? ` · showing what was ${updatedAgo(loaded.updatedAt, now)}` : ''}
      </Text>
    );
  }
  if (loaded.updatedAt === undefined)
    return <Text dimColor>{loaded.loading ? 'loading…' : 'not loaded yet'}</Text>;
  return (
    <Text dimColor wrap="truncate-end">
      {updatedAgo(loaded.updatedAt, now)}
      {loaded.loading ? ' · refreshing…' : ''}
    </Text>
  );
}
