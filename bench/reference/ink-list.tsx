/**
 * The second reference: the inbox's screen as bare Ink draws it, with none of
 * the inbox's code. At 120×40, a header, a tab line and two bordered panes side
 * by side: a 31-row list of leads (six columns, the selected row in inverse)
 * and the thread of the selected lead beside it. j and k move the selection,
 * q quits. Rendered with the inbox's options (incremental, 15 frames a
 * second) and bundled the way Ink ships (no patches): what Ink itself costs to
 * start, to draw this screen and to move the highlight, the floor under the
 * inbox's figures.
 */
import { Box, render, Text, useApp, useInput } from 'ink';
import { useState } from 'react';

const NAMES = [
  'Ray Whitaker',
  'Tom Kowalski',
  'Kevin O’Malley',
  'Ethan Brooks',
  'Renée Dubois',
  'Priya Raman',
];
const JOBS = ['water heater', 'boiler', 'gas line', 'AC not cooling', 'sewer backup', 'thermostat'];
const LEADS = Array.from({ length: 31 }, (_, index) => ({
  name: `${NAMES[index % NAMES.length]} ${index}`,
  phone: `+1503555${String(1000 + index).slice(-4)}`,
  job: JOBS[index % JOBS.length] ?? '',
  urgency: index % 3 === 0 ? 'SAME DAY' : 'flexible',
  stage: index % 2 === 0 ? 'new' : 'contacted',
  age: `${index + 1}h`,
}));

function Row({ lead, selected }: { lead: (typeof LEADS)[number]; selected: boolean }) {
  const line = [
    lead.name.padEnd(16).slice(0, 16),
    lead.phone.padEnd(12),
    lead.job.padEnd(12).slice(0, 12),
    lead.urgency.padEnd(9),
    lead.stage.padEnd(10),
    lead.age.padStart(4),
  ].join(' ');
  return (
    <Text inverse={selected} wrap="truncate">
      {` ${line}`}
    </Text>
  );
}

function Screen() {
  const { exit } = useApp();
  const [selected, setSelected] = useState(0);
  useInput((input) => {
    if (input === 'q') exit();
    if (input === 'j') setSelected((index) => Math.min(LEADS.length - 1, index + 1));
    if (input === 'k') setSelected((index) => Math.max(0, index - 1));
  });
  const lead = LEADS[selected] ?? LEADS[0];
  return (
    <Box flexDirection="column" width={120} height={39}>
      <Text bold>Rivera Plumbing &amp; Heating billing active · texting active</Text>
      <Text>29 open leads · 7 callbacks · 8 unreplied reviews · 4 pending actions · 316/500 credits</Text>
      <Text> 1 Inbox 2 Thread 3 Reviews 4 Actions 5 Contacts 6 Today</Text>
      <Box flexGrow={1}>
        <Box flexDirection="column" width={72} flexShrink={0} borderStyle="single">
          <Text bold>Inbox — open leads ({LEADS.length}) · updated 0 s ago</Text>
          {LEADS.map((each, index) => (
            <Row key={each.phone} lead={each} selected={index === selected} />
          ))}
        </Box>
        <Box flexDirection="column" flexGrow={1} borderStyle="single">
          <Text bold wrap="truncate">
            Thread — {lead?.name} ({lead?.phone}) · updated 0 s ago
          </Text>
          <Text wrap="truncate">{lead?.phone} · no email on file · stage lead</Text>
          <Text wrap="truncate">
            lead {lead?.stage} · {lead?.urgency} · from sms
          </Text>
          <Text>◀ them · 2026-11-23 11:01</Text>
          <Text>Hi, the {lead?.job} stopped working this morning. Can someone come out today? Thanks!</Text>
          <Text>▶ us · 2026-11-23 11:04</Text>
          <Text>Thanks {lead?.name}, we can be there between 2 and 4 pm. Reply YES to confirm.</Text>
        </Box>
      </Box>
      <Text dimColor>j/k move · enter open · c text · / search · ? keys · q quit</Text>
    </Box>
  );
}

render(<Screen />, { exitOnCtrlC: true, patchConsole: false, incrementalRendering: true, maxFps: 15 });
