import { changeRule } from '../rule';

export const responseNodeMadeRepeated = changeRule({
  id: 'response-node-made-repeated',
  side: 'response',
  kind: 'repeated',
  targets: ['node'],
  noMirror: {
    'request-node-made-repeated': 'older requests send one node, which is still accepted: compatible',
    'response-node-made-single': 'one node is a count older clients already accepted: compatible',
  },
});
