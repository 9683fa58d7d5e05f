/**
 * The reference the inbox is measured against: a bare Ink app that says hello
 * and waits for q, bundled the way the inbox is (esbuild, production React).
 */
import { render, Text, useApp, useInput } from 'ink';

function Hello() {
  const { exit } = useApp();
  useInput((input) => {
    if (input === 'q') exit();
  });
  return <Text>hello from ink</Text>;
}

render(<Hello />, { exitOnCtrlC: true, patchConsole: false });
