import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The throughput ceiling of node:http on this machine: a keep-alive server answering a fixed
 * ~1 KB JSON with no work at all. Run as its own process, announced like the workstation's CLI.
 */
function oneKilobyteBody(): string {
  const body = {
    data: { pattern: '+441011234567', routePartitionName: 'Site01-PT', alertingName: 'Alice Martin', usage: 'Device' },
    meta: { model_type: 'relation/LineRelation', pkid: '0123456789abcdef01234567', hierarchy: 'sys.BenchCo.Site01', padding: '' },
  };
  body.meta.padding = 'x'.repeat(1024 - JSON.stringify(body).length);
  return JSON.stringify(body);
}

const payload = Buffer.from(oneKilobyteBody());
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': payload.length });
  res.end(payload);
});
// The same keep-alive window as the workstation's HTTP host.
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
const shutdown = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
