import { changeRule } from '../rule';

export const requestQueryRemoved = changeRule({
  id: 'request-query-removed',
  side: 'request',
  kind: 'unexpected',
  targets: ['query'],
  noMirror: {
    'response-query-removed': 'responses have no query parameters',
    'request-query-added': 'query parameters are optional, so a new one is compatible',
  },
});
