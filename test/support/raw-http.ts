import { connect } from 'node:net';

/** Writes `head` on a fresh socket to the loopback port and collects everything until close. */
export function rawRequest(port: number, head: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

/** Status, lower-cased headers and body of one raw HTTP/1.1 answer. */
export function parseRaw(raw: string): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const at = raw.indexOf('\r\n\r\n');
  const [status = '', ...lines] = raw.slice(0, at).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [
      l.slice(0, l.indexOf(':')).toLowerCase(),
      l.slice(l.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(status.split(' ')[1]), headers, body: raw.slice(at + 4) };
}
