import type { JsonObject } from '../api-types';
import type { Principal } from '../auth/principal';
import type { Service } from '../index';

/**
 * The demo world of decisions.md, made through the API itself so every instance went through
 * its workflow (lines exist on devices, used numbers are Used). Run once: a store that already
 * has `sys.hcs` is left alone.
 */
const SITES = [
  { name: 'Paris', prefix: '+3314000', country: 'FR' },
  { name: 'London', prefix: '+4420794', country: 'GB' },
];
const CUSTOMER = 'sys.hcs.Telco.Acme';

const COUNTRIES: JsonObject[] = [
  { country_name: 'France', iso_code: 'FR', international_prefix: '00', country_code: '33' },
  { country_name: 'United Kingdom', iso_code: 'GB', international_prefix: '00', country_code: '44' },
  { country_name: 'Germany', iso_code: 'DE', international_prefix: '00', country_code: '49' },
  { country_name: 'United States', iso_code: 'US', international_prefix: '011', country_code: '1' },
  { country_name: 'Spain', iso_code: 'ES', international_prefix: '00', country_code: '34' },
];

const FIRST_NAMES = ['Alice', 'Bruno', 'Chloé', 'David', 'Emma', 'Farid', 'Grace', 'Hugo', 'Inès', 'Jack'];
const LAST_NAMES = ['Martin', 'Smith', 'Dubois', 'Jones', 'Bernard', 'Taylor', 'Moreau', 'Brown', 'Laurent', 'Wilson'];

const number = (prefix: string, index: number): string => `${prefix}${String(1000 + index).padStart(4, '0')}`;

export async function seedDemo(service: Service, admin: Principal): Promise<boolean> {
  if (service.store.nodes.getByPath('sys.hcs')) return false;
  const post = async (model: string, hierarchy: string, data: JsonObject): Promise<void> => {
    const response = await service.handleAs(admin, {
      method: 'POST',
      url: `/api/${model}/?hierarchy=${encodeURIComponent(hierarchy)}`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data }),
    });
    if (response.status !== 200) throw new Error(`demo seed: POST ${model} at ${hierarchy} failed: ${String(response.body)}`);
  };
  const node = (hierarchy: string, name: string, nodeType: string, description: string): Promise<void> =>
    post('data/HierarchyNode', hierarchy, { name, node_type: nodeType, description });

  await node('sys', 'hcs', 'Intermediate', 'Hosted collaboration');
  await node('sys.hcs', 'Telco', 'Provider', 'Telco provider');
  await node('sys.hcs.Telco', 'Acme', 'Customer', 'Acme Corporation');
  for (const site of SITES) await node(CUSTOMER, site.name, 'Site', `Acme ${site.name} office`);
  for (const country of COUNTRIES) await post('data/Countries', 'sys', country);

  for (const site of SITES) {
    for (let i = 0; i < 100; i += 1) {
      const status = i >= 90 ? 'Reserved' : i >= 85 ? 'Cooling' : 'Available';
      await post('data/InternalNumberInventory', CUSTOMER, {
        internal_number: number(site.prefix, i),
        status,
        usage: '',
        description: `${site.name} DID block`,
      });
    }
  }

  for (const [siteIndex, site] of SITES.entries()) {
    const hierarchy = `${CUSTOMER}.${site.name}`;
    for (let i = 0; i < 10; i += 1) {
      const phone = `SEP00AA0000${siteIndex}${String(i).padStart(3, '0')}`;
      await post('device/cucm/Phone', hierarchy, {
        name: phone,
        product: i % 2 ? 'Cisco 8845' : 'Cisco 7841',
        protocol: 'SIP',
        description: `${site.name} desk ${i + 1}`,
        lines: [],
      });
      const userid = `${site.name.toLowerCase()}.${FIRST_NAMES[i]
        .toLowerCase()
        .normalize('NFD')
        .replace(/[^a-z]/g, '')}`;
      await post('relation/Subscriber', hierarchy, {
        userid,
        firstname: FIRST_NAMES[i],
        lastname: LAST_NAMES[i],
        mailid: `${userid}@acme.example`,
        hierarchy_friendly_name: `Acme ${site.name}`,
        device: phone,
        phone,
      });
      for (let line = 0; line < 2; line += 1) {
        const index = i * 2 + line;
        await post('relation/LineRelation', hierarchy, {
          pattern: number(site.prefix, index),
          routePartitionName: `${site.name}-PT`,
          alertingName: `${FIRST_NAMES[i]} ${LAST_NAMES[i]}${line ? ' (2)' : ''}`,
          description: `${site.name} line ${index + 1}`,
          summary_device: phone,
          callForwardNoAnswer: {
            destination: '+4420794' === site.prefix ? '+442079460999' : '+33140009999',
            forwardToVoiceMail: true,
            callingSearchSpaceName: `${site.name}-CSS`,
          },
        });
      }
    }
  }

  await post('data/ConfigurationTemplate', CUSTOMER, {
    name: 'Acme Line Defaults',
    description: 'Standard line settings for Acme sites',
    target_model_type: 'relation/LineRelation',
    merge_strategy: 'merge',
    template: {
      usage: 'Device',
      presenceGroupName: 'Standard Presence group',
      description: '{{ input.alertingName }} line',
      callForwardNoAnswer: { forwardToVoiceMail: true },
    },
  });
  await post('data/FieldDisplayPolicy', CUSTOMER, {
    name: 'Acme Line Form',
    description: 'What Acme engineers fill in for a line',
    target_model_type: 'relation/LineRelation',
    groups: [
      { title: 'Line', fields: ['pattern', 'routePartitionName', 'alertingName', 'description'] },
      { title: 'Device', fields: ['summary_device'] },
      { title: 'Forwarding', fields: ['callForwardAll', 'callForwardBusy', 'callForwardNoAnswer'] },
    ],
    field_overrides: [
      { field: 'pattern', title: 'Directory Number', help_text: 'E.164 with the leading +', hidden: false, readonly: false },
      { field: 'patternPrecedence', hidden: true },
    ],
  });
  return true;
}
