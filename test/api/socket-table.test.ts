/**
 * Finding who holds the server's end of a loopback connection in
 * /proc/net/tcp and /proc/net/tcp6: the kernel's encoding of addresses (each
 * 32-bit word in host byte order), read against the real kernel tables for
 * real connections, and against written tables for the rows that must never
 * count (a TIME_WAIT row's uid is always 0) and for tables past the cap.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findServerOwner, parseSocketRow, tableForms } from '../../src/api/socket-table.js';

const onLinux = process.platform === 'linux';

describe('tableForms: addresses as the kernel writes them', () => {
  it('matches the kernel on known addresses, little- and big-endian', () => {
    expect(tableForms({ address: '127.0.0.1', port: 8080 }, 'LE')).toEqual({
      tcp: '0100007F:1F90',
      tcp6: '0000000000000000FFFF00000100007F:1F90',
    });
    expect(tableForms({ address: '127.0.0.1', port: 8080 }, 'BE')).toEqual({
      tcp: '7F000001:1F90',
      tcp6: '00000000000000000000FFFF7F000001:1F90',
    });
    expect(tableForms({ address: '::1', port: 443 }, 'LE')).toEqual({
      tcp6: '00000000000000000000000001000000:01BB',
    });
    // Node gives an IPv4 peer of an IPv6 socket as ::ffff:a.b.c.d: the same forms as a.b.c.d.
    expect(tableForms({ address: '::ffff:127.0.0.1', port: 8080 }, 'LE')).toEqual(
      tableForms({ address: '127.0.0.1', port: 8080 }, 'LE'),
    );
  });

  // The kernel prints each 32-bit word of the address as a host-order integer (%08X).
  const kernelWords = (bytes: number[], order: 'LE' | 'BE') => {
    const buffer = Buffer.from(bytes);
    let hex = '';
    for (let offset = 0; offset < buffer.length; offset += 4) {
      const word = order === 'LE' ? buffer.readUInt32LE(offset) : buffer.readUInt32BE(offset);
      hex += word.toString(16).toUpperCase().padStart(8, '0');
    }
    return hex;
  };
  const port = fc.integer({ min: 1, max: 65535 });
  const order = fc.constantFrom<'LE' | 'BE'>('LE', 'BE');

  it('writes any IPv4 address and port as the kernel does, in both tables', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
        port,
        order,
        (bytes, p, o) => {
          const forms = tableForms({ address: bytes.join('.'), port: p }, o);
          const portHex = p.toString(16).toUpperCase().padStart(4, '0');
          expect(forms.tcp).toBe(`${kernelWords(bytes, o)}:${portHex}`);
          expect(forms.tcp6).toBe(
            `${kernelWords([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, ...bytes], o)}:${portHex}`,
          );
        },
      ),
    );
  });

  it('writes any IPv6 address as the kernel does, in tcp6 only', () => {
    fc.assert(
      fc.property(fc.ipV6(), port, order, (address, p, o) => {
        const bytes = ipv6Bytes(address);
        // IPv4-mapped addresses are IPv4 to the kernel tables: the test above covers them. ipaddr.js also
        // reads the deprecated IPv4-compatible form (::1.2.3.4) as mapped; no loopback peer has one, and
        // the mismatch could only make a check find no row and refuse.
        const zeros = bytes.slice(0, 10).every((byte) => byte === 0);
        fc.pre(!(zeros && bytes[10] === 0xff && bytes[11] === 0xff) && !(zeros && address.includes('.')));
        const forms = tableForms({ address, port: p }, o);
        expect(forms.tcp).toBeUndefined();
        expect(forms.tcp6).toBe(`${kernelWords(bytes, o)}:${p.toString(16).toUpperCase().padStart(4, '0')}`);
      }),
    );
  });
});

/** The 16 bytes of an IPv6 address, by expanding "::" (an oracle independent of the code under test). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.flatMap((group) => {
    const value = Number.parseInt(group || '0', 16);
    return [value >> 8, value & 0xff];
  });
}

describe('parseSocketRow', () => {
  it('reads the columns of a row and skips the header', () => {
    expect(
      parseSocketRow(
        '   3: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000  1001        0 123456 1 0000000000000000 20 4 30 10 -1',
      ),
    ).toEqual({ local: '0100007F:1F90', remote: '0100007F:C350', state: '01', uid: 1001 });
    expect(
      parseSocketRow(
        '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      ),
    ).toBeUndefined();
    expect(parseSocketRow('')).toBeUndefined();
  });
});

describe.skipIf(!onLinux)('findServerOwner against the kernel', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  /** A connection to a server of this process: the ends as the client sees them. */
  async function connect(listenHost: string, connectHost: string) {
    const server = createServer((socket) => sockets.push(socket));
    servers.push(server);
    await new Promise<void>((resolve) =>
      server.listen({ host: listenHost, port: 0, ipv6Only: false }, resolve),
    );
    const { port } = server.address() as { port: number };
    const client = createConnection({ host: connectHost, port });
    sockets.push(client);
    await new Promise<void>((resolve, reject) => client.once('connect', resolve).once('error', reject));
    return {
      server: { address: client.remoteAddress as string, port: client.remotePort as number },
      client: { address: client.localAddress as string, port: client.localPort as number },
    };
  }

  const me = process.geteuid?.() ?? -1;

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::1', '::1'],
    ['::', '127.0.0.1'],
    ['::', '::1'],
    ['0.0.0.0', '127.0.0.1'],
  ])('finds this process as the owner of a server on %s reached at %s', async (listenHost, connectHost) => {
    const ends = await connect(listenHost, connectHost);
    expect(await findServerOwner(ends.server, ends.client)).toEqual({ kind: 'found', uid: me });
  });

  it('finds the owner on any address of 127.0.0.0/8', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(
          fc.integer({ min: 0, max: 255 }),
          fc.integer({ min: 0, max: 255 }),
          fc.integer({ min: 1, max: 254 }),
        ),
        async ([b, c, d]) => {
          const address = `127.${b}.${c}.${d}`;
          const ends = await connect(address, address);
          expect(ends.server.address).toBe(address);
          expect(await findServerOwner(ends.server, ends.client)).toEqual({ kind: 'found', uid: me });
        },
      ),
      { numRuns: 15 },
    );
  });

  it('finds nothing for a connection that does not exist', async () => {
    const ends = await connect('127.0.0.1', '127.0.0.1');
    expect(
      await findServerOwner(ends.server, { ...ends.client, port: ends.client.port === 1 ? 2 : 1 }),
    ).toEqual({
      kind: 'not-found',
    });
  });
});

describe('findServerOwner on written tables', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'shop-inbox-socket-table-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const HEADER =
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
  const row = (local: string, remote: string, state: string, uid: number) =>
    `   0: ${local} ${remote} ${state} 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 4242 1 0000000000000000 20 4 30 10 -1\n`;
  const server = { address: '127.0.0.1', port: 8080 };
  const client = { address: '127.0.0.1', port: 50000 };
  const forms = { server: tableForms(server, 'LE'), client: tableForms(client, 'LE') };

  async function tables(tcp: string, tcp6 = HEADER) {
    await writeFile(join(dir, 'tcp'), tcp);
    await writeFile(join(dir, 'tcp6'), tcp6);
    return { tables: { tcp: join(dir, 'tcp'), tcp6: join(dir, 'tcp6') }, byteOrder: 'LE' as const };
  }

  it("takes the server's end, not the client's own row", async () => {
    const options = await tables(
      HEADER +
        row(forms.client.tcp ?? '', forms.server.tcp ?? '', '01', 0) +
        row(forms.server.tcp ?? '', forms.client.tcp ?? '', '01', 1001),
    );
    expect(await findServerOwner(server, client, options)).toEqual({ kind: 'found', uid: 1001 });
  });

  it('never counts a TIME_WAIT row, whose uid the kernel always writes as 0', async () => {
    const options = await tables(HEADER + row(forms.server.tcp ?? '', forms.client.tcp ?? '', '06', 0));
    expect(await findServerOwner(server, client, options)).toEqual({ kind: 'not-found' });
  });

  it('counts a connection not yet accepted (SYN_RECV), which the kernel lists with the listener', async () => {
    const options = await tables(HEADER + row(forms.server.tcp ?? '', forms.client.tcp ?? '', '03', 1001));
    expect(await findServerOwner(server, client, options)).toEqual({ kind: 'found', uid: 1001 });
  });

  it('finds the row in tcp6 when the server is an IPv6 socket that took an IPv4 client', async () => {
    const options = await tables(HEADER, HEADER + row(forms.server.tcp6, forms.client.tcp6, '01', 1001));
    expect(await findServerOwner(server, client, options)).toEqual({ kind: 'found', uid: 1001 });
  });

  it('finds a row far down a busy table, and stops at the cap of a longer one', async () => {
    const other = row('0100007F:0016', '0100007F:9C40', '01', 0);
    const busy =
      HEADER + other.repeat(20_000) + row(forms.server.tcp ?? '', forms.client.tcp ?? '', '01', 1001);
    const options = await tables(busy);
    expect(await findServerOwner(server, client, options)).toEqual({ kind: 'found', uid: 1001 });
    expect(await findServerOwner(server, client, { ...options, maxBytes: 256 * 1024 })).toEqual({
      kind: 'unknown',
      why: `${join(dir, 'tcp')} is too long to read`,
    });
  });

  it('says unknown when there are no tables at all', async () => {
    expect(
      await findServerOwner(server, client, { tables: { tcp: join(dir, 'none'), tcp6: join(dir, 'none6') } }),
    ).toEqual({ kind: 'unknown', why: 'this system has no /proc/net/tcp' });
  });
});
