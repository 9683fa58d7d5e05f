/**
 * The composer's canned replies (ctrl-t): what is typed, then every template
 * ranked by fzf, and the highlighted one as it would go into the text, filled
 * in for this recipient; enter puts it in at the cursor.
 */
import { Box } from 'ink';
import { useMemo } from 'react';
import { emptyLine } from '../../store/line-editor.js';
import { useAppState, useServices } from '../../ui-kit/app-context.js';
import { OverlayBox } from '../../ui-kit/components/overlay-box.js';
import { Text } from '../../ui-kit/components/text.js';
import { block, oneLine } from '../../ui-kit/format.js';
import { fillTemplate, variablesFor } from '../../user-actions/templates.js';
import { templateItems } from '../commands/template-items.js';

export function TemplatePicker({ height }: { height: number }) {
  const { store } = useServices();
  const inputs = useAppState((state) => ({
    templates: state.templates,
    query: state.templatePicker?.query ?? emptyLine,
    selected: state.templatePicker?.selected ?? 0,
    composer: state.composer,
    me: state.me,
    texting: state.texting,
    inbox: state.inbox,
  }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: the items depend on exactly these inputs
  const items = useMemo(() => templateItems(store.getState()), [inputs.templates, inputs.query, store]);
  const chosen = items[inputs.selected];
  const preview =
    chosen && inputs.composer
      ? fillTemplate(chosen.template.body, variablesFor(inputs, inputs.composer))
      : '';
  const previewRows = Math.min(4, Math.max(1, Math.floor(height / 3)));
  const room = Math.max(1, height - 4 - previewRows - 1);
  const first = Math.max(0, Math.min(inputs.selected - Math.floor(room / 2), items.length - room));
  const shown = items.slice(first, first + room);
  return (
    <OverlayBox
      height={height}
      colour="special"
      title={<>Templates — type to find, enter puts it in the text, esc goes back</>}
    >
      <Text wrap="truncate-end">
        {'> '}
        {inputs.query.text.slice(0, inputs.query.cursor)}
        <Text inverse>{inputs.query.text.slice(inputs.query.cursor, inputs.query.cursor + 1) || ' '}</Text>
        {inputs.query.text.slice(inputs.query.cursor + 1)}
      </Text>
      {items.length === 0 ? <Text dimColor>No template matches.</Text> : null}
      {shown.map((item, offset) => (
        <Box key={`${item.template.name}\u0000${item.template.body}`} height={1} overflow="hidden">
          <Text wrap="truncate-end" inverse={first + offset === inputs.selected}>
            <Text bold>{oneLine(item.template.name)}</Text> · {oneLine(item.template.body)}
          </Text>
        </Box>
      ))}
      <Box flexGrow={1} />
      <Box height={previewRows} overflow="hidden">
        <Text wrap="wrap" dimColor>
          {block(preview)}
        </Text>
      </Box>
    </OverlayBox>
  );
}
