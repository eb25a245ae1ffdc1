import { changeRule } from '../rule';

export const responseObjectOpened = changeRule({
  id: 'response-object-opened',
  side: 'response',
  kind: 'open',
  targets: ['node'],
  noMirror: {
    'request-object-opened': 'older requests still fit: compatible',
    'response-object-closed': 'older clients accepted the keys that remain: compatible',
  },
});
