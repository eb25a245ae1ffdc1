import { changeRule } from '../rule';

export const requestNodeRemoved = changeRule({
  id: 'request-node-removed',
  side: 'request',
  kind: 'unexpected',
  targets: ['node'],
  noMirror: {
    'request-node-added': 'adding an optional request node is compatible; adding a required one is request-node-required-added',
  },
});
