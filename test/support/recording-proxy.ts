import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * For tests: a TCP proxy in front of the sandbox that keeps every byte it carries, both ways, so a
 * test can find out what really crossed the wire (the service tokens Login handed out, the
 * headers that carried them) without asking the code under test.
 */
export interface RecordingProxy {
  url: string;
  /** Everything carried so far, requests and answers, as latin1 text (binary frames included). */
  traffic(): string;
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const { hostname, port } = new URL(target);
  const carried: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => carried.push(chunk));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    traffic: () => Buffer.concat(carried).toString('latin1'),
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}
