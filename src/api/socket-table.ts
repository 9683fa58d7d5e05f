/**
 * Which user holds the other end of a TCP connection on this machine, read
 * from the kernel's socket tables, /proc/net/tcp and /proc/net/tcp6 (Linux).
 * Both ends of a loopback connection are listed there; the row whose local
 * address is the server's and whose remote address is ours is the socket the
 * server accepted, and its uid column says whose process it is (for a
 * connection not yet accepted, the listening socket's owner).
 *
 * The tables list every TCP socket of the machine: on a busy box they run to
 * megabytes. They are read as a stream, line by line, up to a cap, and the
 * read stops at the row sought.
 *
 * How addresses are written there: `ADDRESS:PORT` in upper-case hex. The port
 * is its number. The address is the 4 (IPv4) or 16 (IPv6) bytes in network
 * order, each 32-bit word printed as the host reads it: on a little-endian
 * machine 127.0.0.1 is `0100007F`, ::1 is `00000000000000000000000001000000`.
 * An IPv4 address can also appear in tcp6 as IPv4-mapped (::ffff:127.0.0.1),
 * when one end is an IPv6 socket: a server listening on [::] accepts IPv4
 * clients that way.
 */
import { createReadStream } from 'node:fs';
import { endianness } from 'node:os';
import ipaddr from 'ipaddr.js';

export interface TcpEndpoint {
  address: string;
  port: number;
}

export const SOCKET_TABLES = ['/proc/net/tcp', '/proc/net/tcp6'] as const;

/** ~200,000 sockets: a table longer than this is not read to its end (the owner counts as unknown). */
export const SOCKET_TABLE_MAX_BYTES = 32 * 1024 * 1024;

/** The kernel's states a server's end of a fresh connection can be in: established, or not yet accepted. */
const ESTABLISHED = '01';
const SYN_RECV = '03';

export type SocketOwner =
  /** The uid of the process holding the server's end. */
  | { kind: 'found'; uid: number }
  /** The tables were read, and no row is that connection's (it closed meanwhile). */
  | { kind: 'not-found' }
  /** There is no table to read (not Linux, no /proc), or it is too long to read. */
  | { kind: 'unknown'; why: string };

function hexOfWords(bytes: number[], byteOrder: 'LE' | 'BE'): string {
  let hex = '';
  for (let word = 0; word < bytes.length; word += 4) {
    const chunk = bytes.slice(word, word + 4);
    const ordered = byteOrder === 'LE' ? chunk.reverse() : chunk;
    for (const byte of ordered) hex += byte.toString(16).padStart(2, '0');
  }
  return hex.toUpperCase();
}

/**
 * How one endpoint is written in each table: `{ tcp, tcp6 }`. An IPv4 address
 * (also one Node gives as ::ffff:a.b.c.d) has both forms; an IPv6 one only tcp6.
 */
export function tableForms(
  endpoint: TcpEndpoint,
  byteOrder: 'LE' | 'BE' = endianness(),
): { tcp?: string; tcp6: string } {
  const address = ipaddr.process(endpoint.address);
  const port = endpoint.port.toString(16).toUpperCase().padStart(4, '0');
  if (address.kind() === 'ipv4') {
    const bytes = address.toByteArray();
    const mapped = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes];
    return {
      tcp: `${hexOfWords(bytes, byteOrder)}:${port}`,
      tcp6: `${hexOfWords(mapped, byteOrder)}:${port}`,
    };
  }
  return { tcp6: `${hexOfWords(address.toByteArray(), byteOrder)}:${port}` };
}

/** One row of a table: `sl local remote st tx:rx tr:when retrnsmt uid timeout inode …`. */
export interface SocketRow {
  local: string;
  remote: string;
  state: string;
  uid: number;
}

export function parseSocketRow(line: string): SocketRow | undefined {
  const fields = line.trim().split(/\s+/);
  if (fields.length < 8 || !/^\d+:$/.test(fields[0] ?? '')) return undefined;
  const uid = Number(fields[7]);
  if (!Number.isSafeInteger(uid)) return undefined;
  return { local: fields[1] ?? '', remote: fields[2] ?? '', state: fields[3] ?? '', uid };
}

type TableResult = { kind: 'found'; uid: number } | { kind: 'not-found' } | { kind: 'missing' | 'too-long' };

/** Streams one table until the row with this local and remote address, its end, or the cap. */
function searchTable(path: string, local: string, remote: string, maxBytes: number): Promise<TableResult> {
  return new Promise((resolve) => {
    const stream = createReadStream(path, { encoding: 'latin1', highWaterMark: 64 * 1024 });
    let carry = '';
    let read = 0;
    let done = false;
    const finish = (result: TableResult) => {
      if (done) return;
      done = true;
      stream.destroy();
      resolve(result);
    };
    const look = (line: string) => {
      const row = parseSocketRow(line);
      if (
        row &&
        row.local === local &&
        row.remote === remote &&
        (row.state === ESTABLISHED || row.state === SYN_RECV)
      )
        finish({ kind: 'found', uid: row.uid });
    };
    /** Looks at the lines of `text` that hold our address: nearly every row of a busy table is another's. */
    const scan = (text: string) => {
      for (let at = text.indexOf(remote); at !== -1 && !done; at = text.indexOf(remote, at + 1)) {
        const start = text.lastIndexOf('\n', at) + 1;
        const end = text.indexOf('\n', at);
        look(text.slice(start, end === -1 ? text.length : end));
        if (end === -1) break;
        at = end;
      }
    };
    stream.on('data', (chunk: string | Buffer) => {
      const text = carry + String(chunk);
      read += text.length - carry.length;
      // Whole lines now; the last, unfinished one waits for the next chunk.
      const lastLineEnd = text.lastIndexOf('\n') + 1;
      carry = text.slice(lastLineEnd);
      scan(text.slice(0, lastLineEnd));
      if (!done && read > maxBytes) finish({ kind: 'too-long' });
    });
    stream.on('end', () => {
      scan(carry);
      finish({ kind: 'not-found' });
    });
    stream.on('error', () => finish({ kind: 'missing' }));
  });
}

export interface SocketOwnerOptions {
  /** The tables to read (tests point these elsewhere). */
  tables?: { tcp: string; tcp6: string };
  maxBytes?: number;
  byteOrder?: 'LE' | 'BE';
}

/**
 * Who holds the server's end of the connection from `client` to `server`
 * (both as this process sees them: the socket's local and remote address).
 */
export async function findServerOwner(
  server: TcpEndpoint,
  client: TcpEndpoint,
  options: SocketOwnerOptions = {},
): Promise<SocketOwner> {
  const tables = options.tables ?? { tcp: SOCKET_TABLES[0], tcp6: SOCKET_TABLES[1] };
  const maxBytes = options.maxBytes ?? SOCKET_TABLE_MAX_BYTES;
  const serverForms = tableForms(server, options.byteOrder);
  const clientForms = tableForms(client, options.byteOrder);
  // The server's socket is IPv4 (tcp) or IPv6 (tcp6), whichever our own socket is: IPv4 clients of an
  // IPv6 server are listed there as IPv4-mapped.
  const searches: Array<[string, string, string]> = [];
  if (serverForms.tcp && clientForms.tcp) searches.push([tables.tcp, serverForms.tcp, clientForms.tcp]);
  searches.push([tables.tcp6, serverForms.tcp6, clientForms.tcp6]);
  let missing = 0;
  for (const [path, local, remote] of searches) {
    const result = await searchTable(path, local, remote, maxBytes);
    if (result.kind === 'found') return result;
    if (result.kind === 'too-long') return { kind: 'unknown', why: `${path} is too long to read` };
    if (result.kind === 'missing') missing += 1;
  }
  if (missing === searches.length) return { kind: 'unknown', why: 'this system has no /proc/net/tcp' };
  return { kind: 'not-found' };
}
