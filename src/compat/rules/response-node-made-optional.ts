import { changeRule } from '../rule';

export const responseNodeMadeOptional = changeRule({
  id: 'response-node-made-optional',
  side: 'response',
  kind: 'optional',
  targets: ['node'],
  noMirror: {
    'request-node-made-optional': 'older requests still fit: compatible',
    'response-node-made-required': 'a response node that becomes required was always allowed: compatible',
  },
});
