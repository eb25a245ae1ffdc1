import { AccordError } from '../../src/errors';

/** The AccordError `run` throws. Any other error is thrown on; when it throws nothing, an Error saying `none`. */
export function accordErrorOf(run: () => unknown, none = 'expected an AccordError'): AccordError {
  try {
    run();
  } catch (e) {
    if (e instanceof AccordError) return e;
    throw e;
  }
  throw new Error(none);
}
