import { changeRule } from '../rule';

export const responseNodeAdded = changeRule({
  id: 'response-node-added',
  side: 'response',
  kind: 'unexpected',
  targets: ['node'],
  noMirror: {
    'request-node-added': 'adding an optional request node is compatible; adding a required one is request-node-required-added',
  },
});
