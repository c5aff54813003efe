import type { MappingFileJson } from '../../../main/service/contract/mapping-api';

/**
 * What the engineer confirms for the French site survey of the mapping tests (Site, Numéro, Nom
 * affiché, Commentaire): the site as the node, local numbers made E.164 with the node's country,
 * the displayed name as the alerting name, the comment not loaded.
 */
export const SURVEY_MAPPING: MappingFileJson = {
  model: 'relation/LineRelation',
  columns: [
    { header: 'Site', target: '#Hierarchy Node', transforms: [{ kind: 'node' }] },
    { header: 'Numéro', target: 'pattern', transforms: [{ kind: 'e164' }] },
    { header: 'Nom affiché', target: 'alertingName' },
    { header: 'Commentaire', target: null },
  ],
};
