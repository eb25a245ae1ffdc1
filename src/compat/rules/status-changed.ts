import { WHERE } from '../../pattern/mismatch';
import type { Rule } from '../model';

/** The method and path are still there, but no newer scenario answers with the older status. */
export const statusChanged: Rule = {
  id: 'status-changed',
  side: 'scenario',
  level: 'error',
  check: (d) => {
    if (d.candidates.length === 0 || d.newer) return [];
    const statuses = [...new Set(d.candidates.map((c) => c.response.status))].sort();
    return [{ path: WHERE.responseStatus, older: String(d.older.response.status), newer: statuses.join(', ') }];
  },
};
