import { changeRule } from '../rule';

export const requestHeaderMadeRequired = changeRule({
  id: 'request-header-made-required',
  side: 'request',
  kind: 'optional',
  targets: ['header'],
  noMirror: {
    'response-header-made-required': 'a response header that becomes required was always allowed: compatible',
    'request-header-made-optional': 'older requests still fit: compatible',
  },
});
