/**
 * The root: header, tabs, the focused pane (in wide terminals the panes the
 * registry pairs, the inbox and its thread, side by side), the help or the
 * palette over them, the composer, the status bar. Keys do not pass through
 * React: the input layer hands them to the dispatcher, which reads the store.
 * The frame is one row shorter than the terminal, so Ink never clears the
 * whole screen on a render.
 */
import { Box } from 'ink';
import type { PaneDescriptor } from '../panes/pane.js';
import { paneById, panesOnScreen } from '../panes/registry.js';
import { useAppState, useServices } from '../ui-kit/app-context.js';
import { Text } from '../ui-kit/components/text.js';
import { WHEEL_ROWS } from '../ui-kit/mouse.js';
import { useClickable } from '../ui-kit/use-clickable.js';
import { contextOf } from './commands/dispatch.js';
import { Composer, useComposerView } from './components/composer.js';
import { FatalScreen } from './components/fatal-screen.js';
import { Header } from './components/header.js';
import { StatusBar } from './components/status-bar.js';
import { Tabs } from './components/tabs.js';
import { ApprovalOverlay } from './overlays/approval-overlay.js';
import { EditKeysOverlay } from './overlays/edit-keys-overlay.js';
import { HelpOverlay } from './overlays/help-overlay.js';
import { LogOverlay } from './overlays/log-overlay.js';
import { Palette } from './overlays/palette.js';
import { ShopPicker } from './overlays/shop-picker.js';
import { TemplatePicker } from './overlays/template-picker.js';

const HEADER_ROWS = 3;
/** Below this the panes cannot show a usable list; 80×24 is the size everything is designed for. */
const MIN_COLUMNS = 60;
const MIN_ROWS = 16;
const STATUS_ROWS = 2;

/** A pane on screen: the wheel over it moves its selection. */
function PaneSlot({
  pane,
  height,
  width,
  columns,
  focused,
}: {
  pane: PaneDescriptor;
  height: number;
  width?: string;
  columns: number;
  focused: boolean;
}) {
  const { commandContext } = useServices();
  const ref = useClickable({
    wheel: (direction) => commandContext().ui.move((current) => current + direction * WHEEL_ROWS, pane.id),
  });
  const Pane = pane.Component;
  return (
    <Box ref={ref} height={height} {...(width ? { width } : { flexGrow: 1 })}>
      <Pane height={height} width="100%" columns={columns} focused={focused} />
    </Box>
  );
}

function Panes({ height }: { height: number }) {
  const focus = useAppState((state) => state.focus);
  const columns = useAppState((state) => state.columns);
  const shown = useAppState((state) => panesOnScreen(state).map((pane) => pane.id));
  const [left, right] = shown.map(paneById);
  if (left && right) {
    // As the layout rounds 60% of the width.
    const leftColumns = Math.round(columns * 0.6);
    return (
      <Box height={height}>
        <PaneSlot pane={left} height={height} width="60%" columns={leftColumns} focused={focus === left.id} />
        <PaneSlot
          pane={right}
          height={height}
          width="40%"
          columns={columns - leftColumns}
          focused={focus === right.id}
        />
      </Box>
    );
  }
  return <PaneSlot pane={paneById(focus)} height={height} columns={columns} focused />;
}

export function App() {
  const { Wallboard } = useServices();
  const layout = useAppState((state) => ({
    rows: state.rows,
    columns: state.columns,
    help: state.helpOpen,
    log: state.logOpen,
    palette: state.palette !== undefined,
    editKeys: state.editKeys !== undefined && contextOf(state) === 'editkeys',
    approval: state.prompt?.kind === 'confirm-approve' ? state.prompt : undefined,
    templates: state.templatePicker !== undefined && state.composer !== undefined,
    shops: state.shopPicker !== undefined,
    fatal: state.fatal,
    wallboard: state.view === 'wallboard',
  }));
  const composer = useComposerView();
  const frameRows = Math.max(6, layout.rows - 1);
  if (layout.columns < MIN_COLUMNS || layout.rows < MIN_ROWS) {
    return (
      <Box height={Math.max(1, layout.rows - 1)} overflow="hidden">
        <Text wrap="wrap">
          shop-inbox needs at least {MIN_COLUMNS}×{MIN_ROWS}; this terminal is {layout.columns}×{layout.rows}.
          Make it larger (q quits).
        </Text>
      </Box>
    );
  }
  if (layout.fatal) {
    return (
      <Box flexDirection="column" height={frameRows} overflow="hidden">
        <FatalScreen fatal={layout.fatal} height={frameRows - STATUS_ROWS} />
        <StatusBar />
      </Box>
    );
  }
  if (layout.wallboard && Wallboard) return <Wallboard height={frameRows} />;
  const bodyRows = Math.max(3, frameRows - HEADER_ROWS - STATUS_ROWS - composer.height);
  return (
    <Box flexDirection="column" height={frameRows} overflow="hidden">
      <Header />
      <Tabs />
      {layout.editKeys ? (
        <EditKeysOverlay height={bodyRows} />
      ) : layout.approval ? (
        <ApprovalOverlay height={bodyRows} prompt={layout.approval} />
      ) : layout.palette ? (
        <Palette height={bodyRows} />
      ) : layout.templates ? (
        <TemplatePicker height={bodyRows} />
      ) : layout.shops ? (
        <ShopPicker height={bodyRows} />
      ) : layout.help ? (
        <HelpOverlay height={bodyRows} />
      ) : layout.log ? (
        <LogOverlay height={bodyRows} />
      ) : (
        <Panes height={bodyRows} />
      )}
      <Composer view={composer} />
      <StatusBar />
    </Box>
  );
}
