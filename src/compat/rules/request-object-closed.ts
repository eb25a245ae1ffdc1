import { changeRule } from '../rule';

export const requestObjectClosed = changeRule({
  id: 'request-object-closed',
  side: 'request',
  kind: 'open',
  targets: ['node'],
  noMirror: {
    'response-object-closed': 'older clients accepted the keys that remain: compatible',
    'request-object-opened': 'older requests still fit: compatible',
  },
});
