import { changeRule } from '../rule';

export const responseHeaderMadeOptional = changeRule({
  id: 'response-header-made-optional',
  side: 'response',
  kind: 'optional',
  targets: ['header'],
  noMirror: {
    'request-header-made-optional': 'older requests still fit: compatible',
    'response-header-made-required': 'a response header that becomes required was always allowed: compatible',
  },
});
