/**
 * Billing: the shop's subscription and texting setup, one fact a row (plan,
 * status, period end, card brand and last four only, texting number and
 * status, campaign, call forwarding); y copies the selected fact.
 */
import type { Billing, TextingSetup } from '../contract/resources.js';
import type { AppState } from '../store/app-store.js';
import type { ListShape } from '../store/selection.js';
import { selectedIndexIn } from '../store/selection.js';
import { selectionOf } from '../store/selectors.js';
import { useAppState } from '../ui-kit/app-context.js';
import { ListWindow } from '../ui-kit/components/list-window.js';
import { LoadedStatus, statusOf } from '../ui-kit/components/loaded-status.js';
import { frameContentRows, PaneFrame } from '../ui-kit/components/pane-frame.js';
import { Text } from '../ui-kit/components/text.js';
import { day, enumLabel, oneLine } from '../ui-kit/format.js';
import { copyCommand } from './common-commands.js';
import type { PaneDescriptor, PaneProps } from './pane.js';
import { useSelectedIndex } from './use-selection.js';

interface Fact {
  id: string;
  label: string;
  value: string;
}

function billingFacts(billing: Billing | undefined): Fact[] {
  if (!billing) return [];
  const card = billing.payment_method;
  return [
    { id: 'plan', label: 'Plan', value: oneLine(billing.subscription.plan) },
    { id: 'status', label: 'Status', value: enumLabel(billing.subscription.status) },
    {
      id: 'period',
      label: 'Period ends',
      value: billing.subscription.current_period_end
        ? day(billing.subscription.current_period_end)
        : 'not set',
    },
    {
      id: 'card',
      label: 'Card',
      value: card ? `${oneLine(card.brand)} ending ${oneLine(card.last4).slice(-4)}` : 'no card on file',
    },
  ];
}

function textingFacts(texting: TextingSetup | undefined): Fact[] {
  if (!texting) return [];
  return [
    {
      id: 'number',
      label: 'Texting number',
      value: texting.texting_number ? oneLine(texting.texting_number) : 'none yet',
    },
    { id: 'texting', label: 'Texting', value: enumLabel(texting.texting_status) },
    { id: 'campaign', label: 'Campaign', value: texting.campaign_approved ? 'approved' : 'NOT approved' },
    {
      id: 'forwarding',
      label: 'Forwarding',
      value: texting.forwarding_verified_at
        ? `verified ${day(texting.forwarding_verified_at)}`
        : 'not verified',
    },
  ];
}

/** One entry per read, so that the same data read twice gives the same rows. */
const rowsOf = new WeakMap<object, Fact[]>();
const factsOf = <T extends object>(data: T | undefined, make: (data: T | undefined) => Fact[]) => {
  if (!data) return make(undefined);
  let rows = rowsOf.get(data);
  if (!rows) {
    rows = make(data);
    rowsOf.set(data, rows);
  }
  return rows;
};

const billingList = (state: AppState): ListShape<Fact> => ({
  rows: [...factsOf(state.billing.data, billingFacts), ...factsOf(state.texting.data, textingFacts)],
  rowId: (fact) => fact.id,
});

const selectedFact = (state: AppState): Fact | undefined => {
  const list = billingList(state);
  return list.rows[selectedIndexIn(list, selectionOf(state, 'billing'))];
};

function BillingPane({ height, focused }: PaneProps) {
  const loaded = useAppState((state) => statusOf(state.billing));
  const facts = useAppState((state) => billingList(state).rows);
  const selected = useSelectedIndex('billing', billingList);
  return (
    <PaneFrame
      title="Billing and texting"
      focused={focused}
      height={height}
      status={<LoadedStatus loaded={loaded} />}
    >
      <ListWindow
        pane="billing"
        items={facts}
        selected={selected}
        height={Math.max(1, frameContentRows(height))}
        rowKey={(fact) => fact.id}
        empty={loaded.updatedAt === undefined ? ' ' : 'No billing details.'}
        renderRow={(fact, isSelected) => (
          <Text wrap="truncate-end" inverse={isSelected && focused}>
            <Text dimColor>{fact.label.padEnd(16)}</Text>
            {fact.value}
          </Text>
        )}
      />
    </PaneFrame>
  );
}

export const billingPane: PaneDescriptor = {
  id: 'billing',
  title: 'Billing',
  Component: BillingPane,
  list: { of: billingList, noun: 'fact', rowLabel: (fact: Fact) => fact.label },
  reads: () => [{ kind: 'billing' }, { kind: 'texting' }],
  commands: [
    copyCommand('billing', (context) => {
      const fact = selectedFact(context.state());
      return fact
        ? { what: `the ${fact.label.toLowerCase()}`, text: fact.value }
        : 'billing is not loaded yet';
    }),
  ],
};
