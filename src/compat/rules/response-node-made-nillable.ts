import { changeRule } from '../rule';

export const responseNodeMadeNillable = changeRule({
  id: 'response-node-made-nillable',
  side: 'response',
  kind: 'nillable',
  targets: ['node'],
  noMirror: {
    'request-node-made-nillable': 'older requests still fit: compatible',
    'response-node-made-non-nillable': 'older clients accepted the values that remain: compatible',
  },
});
