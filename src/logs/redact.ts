import { isCardNumber, isCredentialName } from '../http/redact';

/**
 * Which logged values never reach a contract, even with --examples: nodes the
 * user names with --redact, nodes that look like credentials or session ids,
 * everything inside a WS-Security header, and values that are payment card
 * numbers (13–19 digits passing the Luhn check), whatever their node's name.
 */
export class Redactor {
  private readonly names: Set<string>;

  constructor(
    extra: readonly string[] = [],
    readonly defaults = true,
  ) {
    this.names = new Set(extra.map((n) => n.toLowerCase()));
  }

  /** `local` is the node's name without prefix; `name` as written (`wsse:Password`). */
  redacts(local: string, name: string): boolean {
    if (this.names.has(local.toLowerCase()) || this.names.has(name.toLowerCase())) return true;
    return this.defaults && isCredentialName(local);
  }

  /** A value that is secret whatever its node is called: a card number. */
  redactsValue(value: string): boolean {
    return this.defaults && value.length <= 64 && isCardNumber(value);
  }

  /** A header element whose whole content is secret. */
  redactsSubtree(local: string, inHeader: boolean): boolean {
    return this.defaults && inHeader && local === 'Security';
  }
}
