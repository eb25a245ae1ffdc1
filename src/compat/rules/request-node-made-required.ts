import { changeRule } from '../rule';

export const requestNodeMadeRequired = changeRule({
  id: 'request-node-made-required',
  side: 'request',
  kind: 'optional',
  targets: ['node'],
  noMirror: {
    'response-node-made-required': 'a response node that becomes required was always allowed: compatible',
    'request-node-made-optional': 'older requests still fit: compatible',
  },
});
