/**
 * The only way text reaches the screen. Every string child passes the
 * sanitizer (escape sequences removed, controls made visible) and is fitted
 * to the terminal's idea of width, whatever its source: customer text, an id
 * or a status from the API, an error message, a notice. Ink's own <Text> is
 * not imported anywhere else (biome.json forbids it), so no string from the
 * server can skip this.
 */
import { Text as InkText, type TextProps } from 'ink';
import { Children, type ReactNode } from 'react';
import { displayText } from '../../text/display.js';

function safeChildren(children: ReactNode): ReactNode {
  return Children.map(children, (child) => (typeof child === 'string' ? displayText(child) : child));
}

export function Text(props: TextProps) {
  const { children, ...rest } = props;
  return <InkText {...rest}>{safeChildren(children)}</InkText>;
}

export type { TextProps };
