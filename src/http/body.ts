import { AccordError } from '../errors';
import { parseXml } from '../xml/parse';
import type { XmlElement } from '../xml/tree';
import { JsonTooDeep, parseJson } from '../json/parse';

/**
 * An HTTP body parsed at most once per kind, however many scenarios look at it
 * (the stub compares one request with every scenario).
 */
export class ParsedBody {
  private xml?: XmlElement | AccordError;
  private json?: { value: unknown } | AccordError;

  constructor(readonly text: string) {}

  asXml(): XmlElement | AccordError {
    if (this.xml === undefined) {
      try {
        this.xml = parseXml(this.text);
      } catch (e) {
        if (!(e instanceof AccordError)) throw e;
        this.xml = e;
      }
    }
    return this.xml;
  }

  asJson(): { value: unknown } | AccordError {
    if (this.json === undefined) {
      try {
        this.json = { value: parseJson(this.text) };
      } catch (e) {
        this.json = new AccordError('ACCORD_ERR_JSON', e instanceof JsonTooDeep ? e.message : `not valid JSON: ${(e as Error).message}`);
      }
    }
    return this.json;
  }
}
