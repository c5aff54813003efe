import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy of our own between the workstation and the remote, that spoils the remote's
 * answers on demand: the network faults a field engineer meets, made on real sockets.
 * Requests always pass untouched (so the remote really receives and runs them); only the bytes
 * coming back are delayed, stalled, cut, dripped, or the port is closed outright.
 */
export type FaultMode =
  | { kind: 'pass' }
  /** Holds every answer this long before passing it. */
  | { kind: 'delay'; ms: number }
  /** Passes the first bytes of an answer (its head and a little body), then nothing, keeping the connection open. */
  | { kind: 'stall'; afterBytes: number }
  /** Passes the first bytes, then resets the connection (RST). */
  | { kind: 'reset'; afterBytes: number }
  /** Passes one byte every `everyMs`. */
  | { kind: 'drip'; everyMs: number };

export class FaultProxy {
  mode: FaultMode = { kind: 'pass' };
  /** Connections accepted since start, to show that refused ones never arrive. */
  accepted = 0;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly targetPort: number,
    public port = 0,
  ) {}

  async start(): Promise<void> {
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(this.port, '127.0.0.1', () => done());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Closes the port and every connection: the next connection attempt is refused. */
  async refuse(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.refuse();
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private relay(client: Socket): void {
    this.accepted += 1;
    const upstream = connect(this.targetPort, '127.0.0.1');
    this.sockets.add(client).add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
      this.sockets.delete(client);
      this.sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    let passed = 0;
    let dripQueue = Promise.resolve();
    upstream.on('data', (chunk: Buffer) => {
      const mode = this.mode;
      if (mode.kind === 'pass') return void client.write(chunk);
      if (mode.kind === 'delay') return this.later(mode.ms, () => !client.destroyed && client.write(chunk));
      if (mode.kind === 'drip') {
        for (const byte of chunk) {
          dripQueue = dripQueue.then(
            () =>
              new Promise<void>((done) =>
                this.later(mode.everyMs, () => {
                  if (!client.destroyed) client.write(Buffer.of(byte));
                  done();
                }),
              ),
          );
        }
        return;
      }
      const room = Math.max(0, mode.afterBytes - passed);
      if (room > 0) client.write(chunk.subarray(0, room));
      passed += Math.min(room, chunk.length);
      if (passed >= mode.afterBytes && mode.kind === 'reset') {
        client.resetAndDestroy();
        upstream.destroy();
      }
    });
  }
}
