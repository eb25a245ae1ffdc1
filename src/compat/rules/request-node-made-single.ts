import { changeRule } from '../rule';

export const requestNodeMadeSingle = changeRule({
  id: 'request-node-made-single',
  side: 'request',
  kind: 'repeated',
  targets: ['node'],
  noMirror: {
    'response-node-made-single': 'one node is a count older clients already accepted: compatible',
    'request-node-made-repeated': 'older requests send one node, which is still accepted: compatible',
  },
});
