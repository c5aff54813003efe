import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';

/** A private CA and a server certificate it signed, made with Debian's openssl for this run. */
export interface TestPki {
  caPem: string;
  serverKey: string;
  serverCert: string;
}

export function makePki(subjectAltName = 'IP:127.0.0.1'): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'ws-pki-'));
  const run = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  try {
    run(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Workstation Test CA',
    );
    run('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=remote.test');
    writeFileSync(join(dir, 'ext.cnf'), `subjectAltName=${subjectAltName}\nbasicConstraints=CA:FALSE\n`);
    run(
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '2',
      '-extfile',
      'ext.cnf',
    );
    return {
      caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
      serverKey: readFileSync(join(dir, 'server.key'), 'utf8'),
      serverCert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** HTTPS in front of a plain-HTTP remote: TLS ends here, the bytes go on to the remote's port unchanged. */
export async function startTlsTerminator(pki: TestPki, targetPort: number): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer({ key: pki.serverKey, cert: pki.serverCert }, (client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  // A client that refuses our certificate aborts the handshake; that is the point of some tests.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
