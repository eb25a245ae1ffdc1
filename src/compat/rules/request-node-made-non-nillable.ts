import { changeRule } from '../rule';

export const requestNodeMadeNonNillable = changeRule({
  id: 'request-node-made-non-nillable',
  side: 'request',
  kind: 'nillable',
  targets: ['node'],
  noMirror: {
    'response-node-made-non-nillable': 'older clients accepted the values that remain: compatible',
    'request-node-made-nillable': 'older requests still fit: compatible',
  },
});
