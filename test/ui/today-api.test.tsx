/** GET /openapi.json is reachable from the UI too: Today and account names the API the inbox talks to. */
import { describe, expect, it } from 'vitest';
import { startTui } from '../support/tui.js';

describe('the API line under Today and account', () => {
  it("shows the service's own title, version and OpenAPI version, read without the key", async () => {
    const tui = await startTui({ columns: 100, rows: 30 });
    await tui.press('6');
    const frame = await tui.waitFor(/API\s+.+ v1 \(OpenAPI 3\.1\.0, \d+ paths\)/);
    expect(frame).toContain('Today and account');
    const specReads = (await tui.s.requests()).filter((request) => request.path.endsWith('/openapi.json'));
    expect(specReads).toHaveLength(1);
    expect(specReads[0]?.token).toBeNull();
  });
});
