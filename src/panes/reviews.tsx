/**
 * Reviews: rating, reviewer, date, replied or not; the selected review in
 * full below, with its reply draft (d) clearly marked as not published.
 */
import { Box } from 'ink';
import { memo } from 'react';
import type { Review } from '../contract/resources.js';
import { type AppState, REVIEW_ORDERS, type ReviewOrder } from '../store/app-store.js';
import { listCount } from '../store/counts.js';
import { reviewList, searchText, selectedReview } from '../store/selectors.js';
import { useAppState, useTheme } from '../ui-kit/app-context.js';
import { ListWindow } from '../ui-kit/components/list-window.js';
import { LoadedStatus, statusOf } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { SearchLine } from '../ui-kit/components/search-line.js';
import { Text } from '../ui-kit/components/text.js';
import { block, day, oneLine, stars } from '../ui-kit/format.js';
import { approvePrompt, draftedReplyOf } from './approval-question.js';
import { filterCommands } from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

const DETAIL_ROWS = 8;

/** Why `a` cannot approve this review's draft now, or true. */
function approvable(state: AppState, reviewId: string): true | string {
  const drafted = draftedReplyOf(state, reviewId);
  if (!drafted)
    return state.drafts[reviewId]?.state === 'done'
      ? 'which action holds this draft is not known: approve it in Actions'
      : 'no reply was drafted here for this review (d drafts one)';
  const decided = state.decisions[drafted.actionId]?.state;
  if (decided === 'approving' || decided === 'done') return 'its reply was approved already';
  // Gone from a list read after the draft was made (one read before it cannot know the action yet).
  const pending = state.actions.pending_approval;
  if (
    pending.data &&
    (pending.updatedAt ?? 0) > drafted.at &&
    !pending.data.items.some((action) => action.id === drafted.actionId)
  )
    return 'its action no longer awaits approval';
  return true;
}

const ORDER_WORDS: Record<ReviewOrder, string> = {
  newest: 'newest first',
  unreplied: 'unreplied first',
  rating: 'lowest rating first',
};

const ReviewRow = memo(function ReviewRow({
  review,
  selected,
  fresh,
}: {
  review: Review;
  selected: boolean;
  fresh: boolean;
}) {
  const theme = useTheme();
  return (
    <Box width="100%">
      <Box width={2} flexShrink={0}>
        <Text color={theme.warning}>{fresh ? '●' : ' '}</Text>
      </Box>
      <Box width={6} flexShrink={0}>
        <Text color={review.rating <= 2 ? theme.danger : theme.warning}>{stars(review.rating)}</Text>
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
        {review.replied_at ? (
          <Text color={theme.success}>replied</Text>
        ) : (
          <Text color={theme.warning}>unreplied</Text>
        )}
      </Box>
      <Box flexGrow={1} flexBasis={0} marginLeft={1}>
        <Text wrap="truncate-end">{oneLine(review.review_text)}</Text>
      </Box>
    </Box>
  );
});

function ReviewDetail({ review }: { review: Review | undefined }) {
  const theme = useTheme();
  const draft = useAppState((state) => (review ? state.drafts[review.id] : undefined));
  const drafted = useAppState((state) => (review ? draftedReplyOf(state, review.id) : undefined));
  const decision = useAppState((state) => (drafted ? state.decisions[drafted.actionId]?.state : undefined));
  const readOnly = useAppState((state) => state.readOnly);
  if (!review) return null;
  // Once its action is approved here, or the review got a reply after it was drafted, the draft is no longer a
  // draft. (A reply older than the draft is the one the draft would replace: the draft stays a draft.)
  const repliedAt = review.replied_at ? Date.parse(review.replied_at) : Number.NaN;
  const repliedSince = draft !== undefined && repliedAt >= draft.at;
  const published: 'here' | 'elsewhere' | undefined =
    decision === 'done' ? 'here' : repliedSince ? 'elsewhere' : undefined;
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
      borderColor={theme.muted}
    >
      <Text wrap="truncate-end">
        <Text bold>{oneLine(review.reviewer_name)}</Text> {stars(review.rating)} ·{' '}
        {day(review.created_at_google)} ·{' '}
        {review.replied_at ? `replied ${day(review.replied_at)}` : 'not replied'}
      </Text>
      {/* A long review gives way to its draft: the draft's "not published" line is always in sight. */}
      <Box flexShrink={1} minHeight={1} overflow="hidden">
        <Text wrap="wrap">{block(review.review_text)}</Text>
      </Box>
      {draft?.state === 'drafting' ? <Text color={theme.accent}>drafting a reply…</Text> : null}
      {draft?.draft && published ? (
        <Box flexDirection="column" flexShrink={0}>
          <Text color={theme.success} bold wrap="truncate-end">
            {published === 'here'
              ? `REPLY — published${review.replied_at ? ` ${day(review.replied_at)}` : ''} (approved here: action ${oneLine(drafted?.actionId)})`
              : `A reply was published ${day(review.replied_at)}; the draft made here was not approved here and may not be it`}
          </Text>
          {published === 'here' ? (
            <Box overflow="hidden" flexShrink={1}>
              <Text wrap="wrap">{block(draft.draft.reply)}</Text>
            </Box>
          ) : null}
        </Box>
      ) : draft?.draft ? (
        <Box flexDirection="column" flexShrink={0}>
          <Text color={theme.special} bold wrap="truncate-end">
            DRAFT — not published{draft.draft.is_negative ? ' · flagged negative: read before using it' : ''}
          </Text>
          {drafted ? (
            <Text color={theme.accent} wrap="truncate-end">
              {decision === 'done'
                ? `approved: action ${oneLine(drafted.actionId)}`
                : `awaits approval as action ${oneLine(drafted.actionId)}${readOnly ? '' : ' · a approves it'}`}
            </Text>
          ) : null}
          <Box overflow="hidden" flexShrink={1}>
            <Text wrap="wrap">{block(draft.draft.reply)}</Text>
          </Box>
        </Box>
      ) : null}
      {draft?.state === 'failed' && draft.error ? (
        <Text color={theme.danger}>no draft: {oneLine(draft.error.message)}</Text>
      ) : null}
      {!draft && !readOnly ? <Text dimColor>d drafts a reply (it is not published)</Text> : null}
    </Box>
  );
}

function ReviewsPane({ height, focused }: PaneProps) {
  const loaded = useAppState((state) => statusOf(state.reviews));
  const unreplied = useAppState((state) => state.reviews.data?.unreplied_in_page);
  const rows = useAppState((state) => reviewList(state).rows);
  const loadedCount = useAppState((state) => state.reviews.data?.items.length ?? 0);
  const order = useAppState((state) => ({ by: state.reviewOrder, unrepliedOnly: state.unrepliedOnly }));
  const selected = useSelectedIndex('reviews', reviewList);
  const review = useAppState(selectedReview);
  const fresh = useAppState((state) => state.seen.fresh.reviews);
  const search = useAppState((state) => ({
    text: searchText(state, 'reviews'),
    editing: state.searching && focused,
  }));
  const searchRows = search.text || search.editing ? 1 : 0;
  const listRows = Math.max(1, frameContentRows(height) - DETAIL_ROWS - searchRows);
  return (
    <PaneFrame
      title={`Reviews ${listCount({ updatedAt: loaded.updatedAt, shown: rows.length, loaded: loadedCount }).replace(/\)$/, unreplied !== undefined ? `, ${unreplied} unreplied)` : ')')}${order.unrepliedOnly ? ' · unreplied only' : ''}${order.by !== 'newest' ? ` · ${ORDER_WORDS[order.by]}` : ''}`}
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      {searchRows ? <SearchLine text={search.text} editing={search.editing} /> : null}
      <ListWindow
        pane="reviews"
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

export const reviewsPane: PaneDescriptor = {
  id: 'reviews',
  title: 'Reviews',
  Component: ReviewsPane,
  list: { of: reviewList, noun: 'review', rowLabel: (review: Review) => oneLine(review.reviewer_name) },
  reads: () => [{ kind: 'reviews' }],
  choices: (state) => [state.reviewOrder, state.unrepliedOnly],
  seen: { kinds: ['reviews'] },
  filter: 'local',
  commands: [
    {
      id: 'draft',
      mode: 'pane',
      pane: 'reviews',
      keys: ['d'],
      label: 'ask for a reply draft to the selected review (not published)',
      hint: 'draft reply',
      writes: true,
      when: (context) => {
        const state = context.state();
        const review = selectedReview(state);
        if (!review) return 'no review is selected';
        return state.drafts[review.id]?.state === 'drafting' ? 'a draft is already being made' : true;
      },
      run: (context) => {
        const review = selectedReview(context.state());
        if (review) context.ui.draft(review.id);
      },
    },
    {
      id: 'approve',
      mode: 'pane',
      pane: 'reviews',
      keys: ['a'],
      label: 'approve the reply drafted here for the selected review (asks y/n)',
      hint: 'approve draft',
      writes: true,
      when: (context) => {
        const state = context.state();
        const review = selectedReview(state);
        return review ? approvable(state, review.id) : 'no review is selected';
      },
      run: (context) => {
        const state = context.state();
        const review = selectedReview(state);
        const drafted = review ? draftedReplyOf(state, review.id) : undefined;
        if (!drafted) return;
        const listed = state.actions.pending_approval.data?.items.find(
          (action) => action.id === drafted.actionId,
        );
        const action = listed ?? {
          id: drafted.actionId,
          kind: 'review_reply',
          generated_at: new Date(drafted.at).toISOString(),
        };
        context.ui.ask(approvePrompt(state, action, context.ui.now()), context.input.batch);
      },
    },
    {
      id: 'sort',
      mode: 'pane',
      pane: 'reviews',
      keys: ['o'],
      label:
        'order the list: inbox newest → same-day first → oldest first; reviews newest → unreplied → lowest rating first',
      hint: 'order',
      run: (context) => {
        const index = REVIEW_ORDERS.indexOf(context.state().reviewOrder);
        const next = REVIEW_ORDERS[(index + 1) % REVIEW_ORDERS.length] ?? 'newest';
        context.store.setState({ reviewOrder: next });
        context.ui.notify(`Reviews: ${ORDER_WORDS[next]}.`);
      },
    },
    {
      id: 'filter.unreplied',
      mode: 'pane',
      pane: 'reviews',
      keys: ['u'],
      label: 'show only unreplied reviews / all reviews',
      hint: 'unreplied only',
      run: (context) => {
        const only = !context.state().unrepliedOnly;
        context.store.setState({ unrepliedOnly: only });
        context.ui.notify(only ? 'Reviews: only those without a reply.' : 'Reviews: all.');
      },
    },
    ...filterCommands('reviews', {
      label: 'filter by reviewer or text',
      hint: 'filter',
      clearLabel: 'clear the filter',
    }),
  ],
};
