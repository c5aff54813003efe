import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream';
import { Pool } from 'undici';

/**
 * BENCH_ONLY=remote: the bare pass-through proxy, run as its own process with the remote's
 * origin as its argument. node:http in front, one keep-alive undici pool behind (16
 * connections, as the workstation's), every header but the connection's passed both ways and
 * the answer piped back as it arrives. No sign-in, no checks, no buffering: what any proxy in
 * Node costs on this machine, the rate the workstation's proxy is measured against.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'te', 'trailer', 'upgrade']);
const pass = <T>(headers: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
const pool = new Pool(process.argv[2], { connections: 16 });

const server = createServer((req, res) => {
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : req;
  pool.request({ method: req.method as 'GET', path: req.url ?? '/', headers: pass(req.headers), body }).then(
    (answer) => {
      res.writeHead(answer.statusCode, pass(answer.headers));
      pipeline(answer.body, res, () => undefined);
    },
    () => void res.writeHead(502).end(),
  );
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`));
process.once('SIGTERM', () => {
  server.close();
  void pool.close();
  process.exit(0);
});
