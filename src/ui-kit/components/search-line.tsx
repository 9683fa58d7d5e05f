/** The `/` line of a list: what is typed, with a cursor while typing. */
import { useTheme } from '../app-context.js';
import { Text } from './text.js';

export function SearchLine({ text, editing, note }: { text: string; editing: boolean; note?: string }) {
  const theme = useTheme();
  return (
    <Text color={theme.accent} wrap="truncate-end">
      / {text}
      {editing ? '▏' : ''}
      {note ?? ''}
    </Text>
  );
}
