/**
 * The root: header, tabs, the focused pane (in wide terminals the inbox and
 * the thread side by side), the composer, the status bar. Its one key
 * handler is always active. The frame is one row shorter than the terminal,
 * so Ink never clears the whole screen on a render.
 */
import { Box, Text, useInput } from 'ink';
import { isWide, type PaneId } from '../store/app-store.js';
import { useAppState } from './app-context.js';
import { COMPOSER_ROWS, Composer } from './components/composer.js';
import { FatalScreen } from './components/fatal-screen.js';
import { Header } from './components/header.js';
import { HelpOverlay } from './components/help-overlay.js';
import { StatusBar } from './components/status-bar.js';
import { Tabs } from './components/tabs.js';
import type { KeyHandler } from './key-handler.js';
import { ActionsPane } from './panes/actions-pane.js';
import { ContactsPane } from './panes/contacts-pane.js';
import { InboxPane } from './panes/inbox-pane.js';
import { ReviewsPane } from './panes/reviews-pane.js';
import { ThreadPane } from './panes/thread-pane.js';
import { TodayPane } from './panes/today-pane.js';

const HEADER_ROWS = 3;
/** Below this the panes cannot show a usable list; 80×24 is the size everything is designed for. */
const MIN_COLUMNS = 60;
const MIN_ROWS = 16;
const STATUS_ROWS = 2;

function Panes({ focus, height, wide }: { focus: PaneId; height: number; wide: boolean }) {
  if (wide && (focus === 'inbox' || focus === 'thread')) {
    return (
      <Box height={height}>
        <InboxPane height={height} width="60%" focused={focus === 'inbox'} />
        <ThreadPane height={height} width="40%" focused={focus === 'thread'} />
      </Box>
    );
  }
  switch (focus) {
    case 'inbox':
      return <InboxPane height={height} focused />;
    case 'thread':
      return <ThreadPane height={height} focused />;
    case 'reviews':
      return <ReviewsPane height={height} focused />;
    case 'actions':
      return <ActionsPane height={height} focused />;
    case 'contacts':
      return <ContactsPane height={height} focused />;
    case 'today':
      return <TodayPane height={height} focused />;
  }
}

export function App({ onKey }: { onKey: KeyHandler }) {
  useInput(onKey);
  const layout = useAppState((state) => ({
    rows: state.rows,
    columns: state.columns,
    wide: isWide(state),
    focus: state.focus,
    help: state.helpOpen,
    fatal: state.fatal,
    composing: Boolean(state.composer || state.prompt?.kind === 'confirm-send'),
  }));
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
  const bodyRows = Math.max(
    3,
    frameRows - HEADER_ROWS - STATUS_ROWS - (layout.composing ? COMPOSER_ROWS : 0),
  );
  return (
    <Box flexDirection="column" height={frameRows} overflow="hidden">
      <Header />
      <Tabs />
      {layout.help ? (
        <HelpOverlay height={bodyRows} />
      ) : (
        <Panes focus={layout.focus} height={bodyRows} wide={layout.wide} />
      )}
      {layout.composing ? <Composer /> : null}
      <StatusBar />
    </Box>
  );
}
