import { AccordError } from '../errors';
import { parseXml, parseXmlInSlices } from '../xml/parse';
import type { XmlElement } from '../xml/tree';
import { readJson } from '../json/parse';

/**
 * An HTTP body parsed at most once per kind, however many scenarios look at it
 * (the stub compares one request with every scenario).
 */
export class ParsedBody {
  private xml?: XmlElement | AccordError;
  private json?: { value: unknown } | AccordError;

  /** `known`: the body already parsed by the caller from this same text (a log's decoded message), kept instead of parsed again. */
  constructor(
    readonly text: string,
    known?: { xml?: XmlElement; json?: unknown },
  ) {
    if (known?.xml) this.xml = known.xml;
    if (known && 'json' in known) this.json = { value: known.json };
  }

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

  /**
   * Parses the body as XML now, in slices with the event loop free between them (see
   * parseXmlInSlices), so that asXml() later has nothing left to do. For a server: one large
   * body must not stop it answering other clients.
   */
  async parseXmlAhead(): Promise<void> {
    if (this.xml !== undefined) return;
    try {
      this.xml = await parseXmlInSlices(this.text);
    } catch (e) {
      if (!(e instanceof AccordError)) throw e;
      this.xml = e;
    }
  }

  asJson(): { value: unknown } | AccordError {
    if (this.json === undefined) {
      const read = readJson(this.text);
      this.json = 'problem' in read ? new AccordError('ACCORD_ERR_JSON', read.problem) : read;
    }
    return this.json;
  }
}
