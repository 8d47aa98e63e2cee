/**
 * The baseline: a bare node:http server that only reads each body, JSON.parses it and answers
 * what Dash answers. Whatever Dash costs beyond this is validation, storage and hot state.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const answer = Buffer.from('{"ok":true,"update":null}');

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': answer.length,
    });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  process.send?.({ port: typeof addr === 'object' && addr ? addr.port : port });
});
