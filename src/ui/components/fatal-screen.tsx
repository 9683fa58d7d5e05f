/** A full-screen stop: the key was refused (401) or the plan cannot use the API (403). Nothing retries. */
import { Box } from 'ink';
import type { Fatal } from '../../store/app-store.js';
import { Text } from './text.js';

const TITLES: Record<Fatal['kind'], string> = {
  unauthorized: 'The shop’s API refused this key',
  no_subscription: 'This shop’s plan cannot use the API',
};

const STEPS: Record<Fatal['kind'], string[]> = {
  unauthorized: [
    'The key is missing, truncated, or was rotated.',
    'Copy the current key from the shop’s API settings. Rotating the key there also disconnects the assistant connection, which uses the same key.',
    'Then run `shop-inbox login`, or set SHOP_API_KEY, and start shop-inbox again.',
  ],
  no_subscription: [
    'The API works only on a plan that includes it.',
    'Change the plan in the shop’s billing settings, then start shop-inbox again.',
  ],
};

export function FatalScreen({ fatal, height }: { fatal: Fatal; height: number }) {
  return (
    <Box
      flexDirection="column"
      height={height}
      borderStyle="double"
      borderColor="red"
      paddingX={2}
      paddingY={1}
    >
      <Text bold color="red">
        {TITLES[fatal.kind]}
      </Text>
      <Text> </Text>
      {STEPS[fatal.kind].map((step) => (
        <Text key={step} wrap="wrap">
          {step}
        </Text>
      ))}
      <Text> </Text>
      <Text dimColor>Nothing is being retried. Press q to quit.</Text>
    </Box>
  );
}
