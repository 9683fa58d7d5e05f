/**
 * The soak's reference: bare Ink as shipped (no patches), with the inbox's
 * options (incremental, 15 frames a second), drawing a two-pane screen like
 * the inbox's whose every row changes four times a second: a clock and new
 * texts, as a live shop's screen does, many times faster. What Ink itself
 * keeps as the texts go by.
 */
import { Box, render, Text, useApp, useInput } from 'ink';
import { useEffect, useState } from 'react';

const NAMES = [
  'Ray Whitaker',
  'Tom Kowalski',
  'Renée Dubois',
  'Priya Raman',
  'Ethan Brooks',
  'Kevin O’Malley',
];
const JOBS = ['water heater', 'boiler', 'gas line', 'AC not cooling', 'sewer backup', 'thermostat'];

function Screen() {
  const { exit } = useApp();
  const [tick, setTick] = useState(0);
  useInput((input) => {
    if (input === 'q') exit();
  });
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 250);
    return () => clearInterval(timer);
  }, []);
  const rows = Array.from({ length: 30 }, (_, index) => {
    const n = tick + index;
    return `${NAMES[n % NAMES.length]} +1503555${String(1000 + (n % 9000)).slice(-4)} ${JOBS[n % JOBS.length]} · text ${n} · ${tick % 60} s`;
  });
  return (
    <Box flexDirection="column">
      <Text bold>Rivera Plumbing &amp; Heating · updated {tick} s ago</Text>
      <Box>
        <Box flexDirection="column" width="60%" borderStyle="single">
          {rows.map((row, index) => (
            <Text key={String(index)} wrap="truncate" inverse={index === tick % rows.length}>
              {row}
            </Text>
          ))}
        </Box>
        <Box flexDirection="column" flexGrow={1} borderStyle="single">
          <Text wrap="truncate">Thread — {NAMES[tick % NAMES.length]}</Text>
          <Text wrap="wrap">
            Hi, the {JOBS[tick % JOBS.length]} stopped working this morning ({tick}). Can someone come out
            today?
          </Text>
        </Box>
      </Box>
    </Box>
  );
}

render(<Screen />, { exitOnCtrlC: true, patchConsole: false, incrementalRendering: true, maxFps: 15 });
