/** The `/` line of a list: what is typed, with a cursor while typing. */
import { Text } from './text.js';

export function SearchLine({ text, editing, note }: { text: string; editing: boolean; note?: string }) {
  return (
    <Text color="cyan" wrap="truncate-end">
      / {text}
      {editing ? '▏' : ''}
      {note ?? ''}
    </Text>
  );
}
