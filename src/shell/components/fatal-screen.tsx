/**
 * A full-screen stop: the key was refused (401) or the plan cannot use the API
 * (403). The refused key is never tried again; when it came from a file, the
 * screen waits for a new one there and the inbox resumes by itself.
 */

import { Box } from 'ink';
import type { Fatal } from '../../store/app-store.js';
import { sanitize } from '../../text/sanitize.js';
import { useTheme } from '../../ui-kit/app-context.js';
import { Text } from '../../ui-kit/components/text.js';

const TITLES: Record<Fatal['kind'], string> = {
  unauthorized: 'The shop’s API refused this key',
  no_subscription: 'This shop’s plan cannot use the API',
};

const ROTATED = [
  'The key is missing, truncated, or was rotated.',
  'Copy the current key from the shop’s API settings. Rotating the key there also disconnects the assistant connection, which uses the same key.',
];

function steps(fatal: Fatal): string[] {
  if (fatal.kind === 'no_subscription') {
    return [
      'The API works only on a plan that includes it.',
      'Change the plan in the shop’s billing settings, then start shop-inbox again.',
    ];
  }
  switch (fatal.recovery?.kind) {
    case 'watching': {
      const where = sanitize(fatal.recovery.where, { singleLine: true });
      return [
        ...ROTATED,
        fatal.recovery.via === 'login'
          ? `Waiting for a new key: run \`shop-inbox login\` (it saves the key in ${where}). The inbox then resumes by itself.`
          : `Waiting for a new key: save it in ${where}, the key file this inbox was started with (chmod 600). The inbox then resumes by itself.`,
        ...(fatal.recovery.problem
          ? [`The key there cannot be used now: ${sanitize(fatal.recovery.problem, { singleLine: true })}`]
          : []),
      ];
    }
    case 'env':
      return [
        ...ROTATED,
        'This key came from SHOP_API_KEY, which cannot change while shop-inbox runs: set the new key there (or run `shop-inbox login` and unset it), then start shop-inbox again.',
      ];
    default:
      return [...ROTATED, 'Then run `shop-inbox login`, or set SHOP_API_KEY, and start shop-inbox again.'];
  }
}

export function FatalScreen({ fatal, height }: { fatal: Fatal; height: number }) {
  const theme = useTheme();
  const waiting = fatal.recovery?.kind === 'watching';
  return (
    <Box
      flexDirection="column"
      height={height}
      borderStyle="double"
      borderColor={theme.danger}
      paddingX={2}
      paddingY={1}
    >
      <Text bold color={theme.danger}>
        {TITLES[fatal.kind]}
      </Text>
      <Text> </Text>
      {steps(fatal).map((step) => (
        <Text key={step} wrap="wrap">
          {step}
        </Text>
      ))}
      <Text> </Text>
      <Text dimColor>
        {waiting
          ? 'The refused key is not tried again. Press q to quit.'
          : 'Nothing is being retried. Press q to quit.'}
      </Text>
    </Box>
  );
}
