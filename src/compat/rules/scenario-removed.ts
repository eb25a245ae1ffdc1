import { endpointText } from '../../contract/model';
import type { Rule } from '../model';

/** No newer scenario has the older one's method and path: the API is gone. */
export const scenarioRemoved: Rule = {
  id: 'scenario-removed',
  side: 'scenario',
  level: 'error',
  noMirror: { 'scenario-added': 'adding a scenario or an endpoint is backward compatible (seed 9.1)' },
  check: (d) => (d.candidates.length === 0 ? [{ path: endpointText(d.older.request), older: d.api, newer: 'no scenario with this method and path' }] : []),
};
