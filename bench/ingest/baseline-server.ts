/**
 * The baseline: a bare node:http server that only reads each body, JSON.parses it and answers
 * what Dash answers. Whatever Dash costs beyond this is validation, storage and hot state. A
 * gzip body is decoded first, with zlib's asynchronous API as Dash does.
 */
import { createServer } from 'node:http';
import { gunzip } from 'node:zlib';

const port = Number(process.argv[2] ?? 0);
const answer = Buffer.from('{"ok":true,"update":null}');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  const reply = (body: Buffer): void => {
    JSON.parse(body.toString('utf8'));
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': answer.length,
    });
    res.end(answer);
  };
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] !== 'gzip') reply(body);
    else gunzip(body, (err, out) => (err ? res.destroy(err) : reply(out)));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  process.send?.({ port: typeof addr === 'object' && addr ? addr.port : port });
});
