/**
 * 3 Reviews: rating, reviewer, date, replied or not; the selected review in
 * full below, with its reply draft (d) clearly marked as not published.
 */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { Review } from '../../contract/resources.js';
import { reviewRows, selectedIndex, selectedReview } from '../../store/selectors.js';
import { useAppState } from '../app-context.js';
import { ListWindow } from '../components/list-window.js';
import { LoadedStatus, statusOf } from '../components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../components/pane-frame.js';
import { SearchLine } from '../components/search-line.js';
import { block, day, oneLine, stars } from '../format.js';

const DETAIL_ROWS = 8;

const ReviewRow = memo(function ReviewRow({
  review,
  selected,
  fresh,
}: {
  review: Review;
  selected: boolean;
  fresh: boolean;
}) {
  return (
    <Box width="100%">
      <Box width={2} flexShrink={0}>
        <Text color="yellow">{fresh ? '●' : ' '}</Text>
      </Box>
      <Box width={6} flexShrink={0}>
        <Text color={review.rating <= 2 ? 'red' : 'yellow'}>{stars(review.rating)}</Text>
      </Box>
      <Box width={20} flexShrink={0} marginLeft={1}>
        <Text wrap="truncate-end" inverse={selected} bold={selected}>
          {oneLine(review.reviewer_name)}
        </Text>
      </Box>
      <Box width={11} flexShrink={0} marginLeft={1}>
        <Text dimColor>{day(review.created_at_google)}</Text>
      </Box>
      <Box width={10} flexShrink={0} marginLeft={1}>
        {review.replied_at ? <Text color="green">replied</Text> : <Text color="yellow">unreplied</Text>}
      </Box>
      <Box flexGrow={1} flexBasis={0} marginLeft={1}>
        <Text wrap="truncate-end">{oneLine(review.review_text)}</Text>
      </Box>
    </Box>
  );
});

function ReviewDetail({ review }: { review: Review | undefined }) {
  const draft = useAppState((state) => (review ? state.drafts[review.id] : undefined));
  const readOnly = useAppState((state) => state.readOnly);
  if (!review) return null;
  return (
    <Box
      flexDirection="column"
      height={DETAIL_ROWS}
      overflow="hidden"
      borderStyle="single"
      borderTop
      borderBottom={false}
      borderLeft={false}
      borderRight={false}
      borderColor="gray"
    >
      <Text wrap="truncate-end">
        <Text bold>{oneLine(review.reviewer_name)}</Text> {stars(review.rating)} ·{' '}
        {day(review.created_at_google)} ·{' '}
        {review.replied_at ? `replied ${day(review.replied_at)}` : 'not replied'}
      </Text>
      <Text wrap="wrap">{block(review.review_text)}</Text>
      {draft?.state === 'drafting' ? <Text color="cyan">drafting a reply…</Text> : null}
      {draft?.draft ? (
        <Box flexDirection="column">
          <Text color="magenta" bold>
            DRAFT — not published{draft.draft.is_negative ? ' · flagged negative: read before using it' : ''}
          </Text>
          <Text wrap="wrap">{block(draft.draft.reply)}</Text>
        </Box>
      ) : null}
      {draft?.state === 'failed' && draft.error ? (
        <Text color="red">no draft: {oneLine(draft.error.message)}</Text>
      ) : null}
      {!draft && !readOnly ? <Text dimColor>d drafts a reply (it is not published)</Text> : null}
    </Box>
  );
}

export function ReviewsPane({ height, focused }: { height: number; focused: boolean }) {
  const loaded = useAppState((state) => statusOf(state.reviews));
  const unreplied = useAppState((state) => state.reviews.data?.unreplied_in_page);
  const rows = useAppState(reviewRows);
  const selected = useAppState((state) => selectedIndex(state, 'reviews'));
  const review = useAppState(selectedReview);
  const fresh = useAppState((state) => state.seen.fresh.reviews);
  const search = useAppState((state) => ({
    text: state.search.reviews.text,
    editing: state.searching && focused,
  }));
  const searchRows = search.text || search.editing ? 1 : 0;
  const listRows = Math.max(1, frameContentRows(height) - DETAIL_ROWS - searchRows);
  return (
    <PaneFrame
      title={`Reviews (${rows.length}${unreplied !== undefined ? `, ${unreplied} unreplied` : ''})`}
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      {searchRows ? <SearchLine text={search.text} editing={search.editing} /> : null}
      <ListWindow
        items={rows}
        selected={selected}
        height={listRows}
        rowKey={(item) => item.id}
        empty={loaded.updatedAt === undefined ? ' ' : 'No reviews.'}
        renderRow={(item, isSelected) => (
          <ReviewRow review={item} selected={isSelected && focused} fresh={fresh.has(item.id)} />
        )}
      />
      <ReviewDetail review={review} />
    </PaneFrame>
  );
}
