import { createService, type Service } from '../../main/service';
import { basicAuth } from './bench-config';

export interface Topology {
  customerPath: string;
  sites: { name: string; pkid: string }[];
  /** A site of another customer holding a few lines (seed-lines.ts): a small scope in a big store. */
  smallSite: { name: string; path: string; pkid: string };
}

export const CUSTOMER_NAME = 'BenchCo';
const SMALL_CUSTOMER_NAME = 'KioskCo';
const SMALL_SITE_NAME = 'Kiosk';

/**
 * Creates the store (root, admin, summary indexes) and the customer with its sites through the
 * service itself, so the nodes are exactly what the API makes; only the lines are bulk-inserted.
 */
export async function createTopology(dataDir: string, adminPassword: string, siteCount: number): Promise<Topology> {
  const service = await createService({ dataDir, adminPassword, log: () => undefined });
  try {
    const post = postNode(service, basicAuth(adminPassword));
    await post('sys', CUSTOMER_NAME, 'Customer');
    const customerPath = `sys.${CUSTOMER_NAME}`;
    const sites: Topology['sites'] = [];
    for (let index = 1; index <= siteCount; index += 1) {
      const name = `Site${String(index).padStart(2, '0')}`;
      sites.push({ name, pkid: await post(customerPath, name, 'Site') });
    }
    await post('sys', SMALL_CUSTOMER_NAME, 'Customer');
    const smallCustomerPath = `sys.${SMALL_CUSTOMER_NAME}`;
    const smallSite = {
      name: SMALL_SITE_NAME,
      path: `${smallCustomerPath}.${SMALL_SITE_NAME}`,
      pkid: await post(smallCustomerPath, SMALL_SITE_NAME, 'Site'),
    };
    await service.idle();
    return { customerPath, sites, smallSite };
  } finally {
    service.close();
  }
}

function postNode(service: Service, authorization: string) {
  return async (hierarchy: string, name: string, nodeType: string): Promise<string> => {
    const response = await service.handle({
      method: 'POST',
      url: `/api/data/HierarchyNode/?hierarchy=${encodeURIComponent(hierarchy)}`,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name, node_type: nodeType, description: `Bench ${nodeType.toLowerCase()} ${name}` } }),
    });
    const text = typeof response.body === 'string' ? response.body : Buffer.from(response.body).toString('utf8');
    if (response.status !== 200) throw new Error(`creating node ${name} at ${hierarchy} failed: ${response.status} ${text}`);
    const { pkid } = JSON.parse(text) as { pkid?: unknown };
    if (typeof pkid !== 'string') throw new Error(`creating node ${name} answered without a pkid: ${text}`);
    return pkid;
  };
}
