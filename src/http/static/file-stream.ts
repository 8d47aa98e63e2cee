import { createReadStream, type ReadStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** Streams still open per connection; one close listener per socket, however many are queued. */
const openBySocket = new WeakMap<Socket, Set<ReadStream>>();

function releaseAll(this: Socket): void {
  const open = openBySocket.get(this);
  openBySocket.delete(this);
  if (open) for (const stream of open) stream.destroy();
}

/**
 * A read stream of `path` that is closed when the client's connection closes. Fastify closes a
 * stream payload when its response closes, but Node never closes the responses it queues behind
 * the first on a pipelined connection: without this, each queued GET of a file would keep a
 * descriptor open for good once the client went away.
 */
export function fileStreamFor(req: IncomingMessage, path: string): ReadStream {
  const socket = req.socket;
  const stream = createReadStream(path);
  if (socket.destroyed) {
    stream.destroy();
    return stream;
  }
  let open = openBySocket.get(socket);
  if (!open) {
    open = new Set();
    openBySocket.set(socket, open);
    socket.once('close', releaseAll);
  }
  open.add(stream);
  stream.once('close', () => open.delete(stream));
  return stream;
}
