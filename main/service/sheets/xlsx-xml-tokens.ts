import { StringDecoder } from 'node:string_decoder';

/**
 * A forward-only XML tokenizer for the parts of an .xlsx, fed one inflated chunk at a time and
 * holding only the text not yet consumed (a tag or a text run cut by the chunk boundary). It does
 * what the reader needs and what exceljs's XML parser (saxes) would refuse, so a file exceljs
 * called damaged is still damaged: tags must nest and close in order, one root element, entities
 * must be the five XML ones or character references to XML characters, raw text must not hold
 * control characters. Attributes are parsed only for the tags a reader asks about. CDATA is text,
 * as every XML reader reports it (Excel and some generators wrap a cell's text in it).
 *
 * Handlers see elements of SpreadsheetML's main namespace (Transitional or Strict) by their
 * local name, whatever prefix the file binds it to (`<x:row>`, as WPS and .NET writers emit);
 * an element of another namespace keeps its prefix, so `<x14:cfRule>` never passes for a
 * `cfRule`. Declarations are taken from any tag that makes one, without scoping: writers bind
 * each prefix once, mostly on the root. A default namespace other than SpreadsheetML's is not
 * looked at: no writer puts a sheet's own elements in one.
 */
export class MalformedXml extends Error {}

export interface XmlHandler {
  /** True while the handler keeps the text it is given; other text is only checked. */
  readonly wantsText: boolean;
  /** `source.slice(start, end)` is the whole tag, `<` to `>`. */
  open(name: string, source: string, start: number, end: number): void;
  close(name: string): void;
  text(text: string): void;
  /**
   * May consume a whole element starting at the `<` at `at` in one step (the sheet's common
   * cells); returns where it ends, or -1 to have it tokenized. Only elements that are whole and
   * well-formed may be taken, so the checks above still hold.
   */
  shortcut?(source: string, at: number): number;
}

const LT = 60;
const GT = 62;
const SLASH = 47;
const QUOTE = 34;
const APOSTROPHE = 39;
/** Text runs longer than this with no tag in sight are passed on, not carried over. */
const LONG_TEXT = 64 * 1024;
/**
 * A tag, comment or CDATA section still open after this much is refused: each chunk would copy it
 * again, and no spreadsheet writer makes one this long (long texts are element text, passed on).
 */
const LONGEST_TAG = 8 * 1024 * 1024;

const MAIN_NAMESPACES = new Set([
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
]);
/** From a tag's `<`: whether it declares a namespace, looking no further than its end. */
const HAS_DECLARATION = /<[^>]*\sxmlns/y;
const DECLARATION = /\sxmlns(?::([\w.-]+))?\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY = /&([^;&<]*);?/g;
// eslint-disable-next-line no-control-regex -- these are the characters XML forbids in text
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/;
/** Anything xmlText would change or refuse: most text has none. */
// eslint-disable-next-line no-control-regex -- the forbidden characters, `\r` and `&`
const SPECIAL = /[\x00-\x08\x0B-\x1F\uFFFE\uFFFF&]/;
const NOT_SPACE = /[^ \t\r\n]/;

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

function entityText(match: string, body: string): string {
  if (!match.endsWith(';')) throw new MalformedXml('an & that starts no entity');
  const known = ENTITIES[body];
  if (known !== undefined) return known;
  const code = body.startsWith('#x') ? parseInt(body.slice(2), 16) : body.startsWith('#') ? parseInt(body.slice(1), 10) : NaN;
  const digits = body.startsWith('#x') ? /^#x[0-9a-fA-F]+$/ : /^#[0-9]+$/;
  if (!digits.test(body) || !isXmlChar(code)) throw new MalformedXml(`an unknown entity &${body};`);
  return String.fromCodePoint(code);
}

/** Text as the XML parser reports it: line ends made `\n`, entities replaced, checked. */
export function xmlText(raw: string): string {
  if (!SPECIAL.test(raw)) return raw;
  if (CONTROL.test(raw)) throw new MalformedXml('a control character in text');
  const lines = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
  return lines.includes('&') ? lines.replace(ENTITY, entityText) : lines;
}

/**
 * Calls `take` with each attribute of the tag `source.slice(start, end)` whose name is one
 * letter (its char code), for the sheet's `<row>` and `<c>`, without slicing the others.
 */
export function letterAttributes(source: string, start: number, end: number, take: (letter: number, value: string) => void): void {
  let at = nameEnd(source, start + 1, end);
  for (;;) {
    const eq = source.indexOf('=', at);
    if (eq < 0 || eq >= end) return;
    while (isSpace(source.charCodeAt(at))) at += 1;
    let open = eq + 1;
    while (isSpace(source.charCodeAt(open))) open += 1;
    const quote = source.charCodeAt(open);
    const close = quote === QUOTE || quote === APOSTROPHE ? source.indexOf(quote === QUOTE ? '"' : "'", open + 1) : -1;
    if (close < 0 || close >= end) throw new MalformedXml('an attribute without a quoted value');
    let nameStop = eq;
    while (isSpace(source.charCodeAt(nameStop - 1))) nameStop -= 1;
    if (nameStop - at === 1) take(source.charCodeAt(at), xmlText(source.slice(open + 1, close)));
    at = close + 1;
  }
}

const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13;

/** One attribute of the tag `source.slice(start, end)`, or undefined. */
export function attributeOf(source: string, start: number, end: number, name: string): string | undefined {
  const tag = source.slice(start, end);
  const pattern = ATTRIBUTE_PATTERNS.get(name) ?? attributePattern(name);
  const match = pattern.exec(tag);
  if (!match) return undefined;
  const value = match[1] ?? match[2];
  return xmlText(value);
}

const ATTRIBUTE_PATTERNS = new Map<string, RegExp>();
function attributePattern(name: string): RegExp {
  const pattern = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"<]*)"|'([^'<]*)')`);
  ATTRIBUTE_PATTERNS.set(name, pattern);
  return pattern;
}

/** Where the tag opened at `from` ends (its `>`), skipping quoted attribute values; -1 if cut. */
function tagEnd(text: string, from: number): number {
  const gt = text.indexOf('>', from);
  if (gt < 0) return -1;
  // The common case: no quote holds a `>`.
  let quote = 0;
  for (let at = from; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (quote !== 0) {
      if (code === quote) quote = 0;
      else if (code === LT) throw new MalformedXml('a < inside an attribute value');
    } else if (code === QUOTE || code === APOSTROPHE) quote = code;
    else if (code === GT) return at;
    else if (code === LT) throw new MalformedXml('a < inside a tag');
  }
  return -1;
}

function nameEnd(text: string, from: number, end: number): number {
  for (let at = from; at < end; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 32 || code === 9 || code === 10 || code === 13 || code === SLASH) return at;
  }
  return end;
}

export class XmlTokenizer {
  private rest = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly stack: string[] = [];
  private started = false;
  private rootClosed = false;
  /** Prefixes bound to another namespace than SpreadsheetML's main one: their elements keep them. */
  private readonly otherPrefixes = new Set<string>();

  constructor(private readonly handler: XmlHandler) {}

  push(chunk: Buffer): void {
    let text = this.rest + this.decoder.write(chunk);
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.rest = text.slice(this.scan(text));
    if (this.rest.length > LONGEST_TAG) throw new MalformedXml('a tag longer than 8 MB');
  }

  /** Where the text ends: exceljs never tells its parser the text has ended, so neither check. */
  end(): void {
    this.push(Buffer.alloc(0));
  }

  /** Consumes whole tokens of `text`; returns where the unconsumed rest starts. */
  private scan(text: string): number {
    const length = text.length;
    let pos = 0;
    while (pos < length) {
      const lt = text.indexOf('<', pos);
      if (lt < 0) {
        if (length - pos <= LONG_TEXT) return pos;
        // Keep back a possible entity or `\r` cut by the chunk boundary.
        const amp = text.lastIndexOf('&');
        const cut = amp > length - 16 && amp >= pos ? amp : length - 1;
        this.onText(text.slice(pos, cut));
        return cut;
      }
      if (lt > pos) this.onText(text.slice(pos, lt));
      if (lt + 1 >= length) return lt;
      const next = text.charCodeAt(lt + 1);
      let after: number;
      if (next === SLASH) after = this.closeTag(text, lt);
      else if (next === 63 /* ? */) after = this.skipTo(text, lt, '?>');
      else if (next === 33 /* ! */) after = this.declaration(text, lt);
      else {
        after = this.handler.shortcut ? this.handler.shortcut(text, lt) : -1;
        if (after < 0) after = this.openTag(text, lt);
      }
      if (after < 0) return lt;
      pos = after;
    }
    return pos;
  }

  private onText(raw: string): void {
    if (this.stack.length === 0) {
      if (NOT_SPACE.test(raw)) throw new MalformedXml('text outside the root element');
      return;
    }
    if (this.handler.wantsText) this.handler.text(xmlText(raw));
    else if (raw.includes('&')) xmlText(raw);
  }

  private skipTo(text: string, lt: number, terminator: string): number {
    const end = text.indexOf(terminator, lt + 2);
    return end < 0 ? -1 : end + terminator.length;
  }

  private declaration(text: string, lt: number): number {
    if (text.length - lt < 9) return -1;
    if (text.startsWith('<!--', lt)) return this.skipTo(text, lt, '-->');
    if (text.startsWith('<![CDATA[', lt)) {
      if (this.stack.length === 0) throw new MalformedXml('CDATA outside the root element');
      const end = text.indexOf(']]>', lt + 9);
      if (end < 0) return -1;
      if (this.handler.wantsText) this.handler.text(text.slice(lt + 9, end).replace(/\r\n?/g, '\n'));
      return end + 3;
    }
    if (text.startsWith('<!DOCTYPE', lt) && this.stack.length === 0 && !this.rootClosed) return this.skipTo(text, lt, '>');
    throw new MalformedXml('an unknown <! declaration');
  }

  private declare(tag: string): void {
    for (const match of tag.matchAll(DECLARATION)) {
      const prefix = match[1];
      if (prefix === undefined) continue;
      if (MAIN_NAMESPACES.has(match[2] ?? match[3] ?? '')) this.otherPrefixes.delete(prefix);
      else this.otherPrefixes.add(prefix);
    }
  }

  /**
   * The name a handler knows an element by: its local name unless its prefix is bound to another
   * namespace (an undeclared prefix is taken for SpreadsheetML's, as forgiving readers take it).
   */
  private localName(name: string): string {
    const colon = name.indexOf(':');
    if (colon < 0) return name;
    return this.otherPrefixes.has(name.slice(0, colon)) ? name : name.slice(colon + 1);
  }

  private openTag(text: string, lt: number): number {
    const gt = tagEnd(text, lt + 1);
    if (gt < 0) return -1;
    const selfClosing = text.charCodeAt(gt - 1) === SLASH;
    const name = text.slice(lt + 1, nameEnd(text, lt + 1, selfClosing ? gt - 1 : gt));
    const first = name.charCodeAt(0);
    if (name === '' || (first >= 48 && first <= 57) || first === 46 || first === 45) throw new MalformedXml('a tag without a name');
    if (this.stack.length === 0 && this.rootClosed) throw new MalformedXml('a second root element');
    HAS_DECLARATION.lastIndex = lt;
    if (HAS_DECLARATION.test(text)) this.declare(text.slice(lt, gt));
    const local = this.localName(name);
    this.handler.open(local, text, lt, gt + 1);
    if (selfClosing) {
      this.handler.close(local);
      if (this.stack.length === 0) this.rootClosed = true;
    } else this.stack.push(name);
    return gt + 1;
  }

  private closeTag(text: string, lt: number): number {
    const gt = text.indexOf('>', lt + 2);
    if (gt < 0) return -1;
    const open = this.stack[this.stack.length - 1];
    // The common case, `</name>` closing the open tag, compares without cutting the name out.
    const name =
      open !== undefined && gt === lt + 2 + open.length && text.startsWith(open, lt + 2) ? open : text.slice(lt + 2, gt).trimEnd();
    if (this.stack.pop() !== name) throw new MalformedXml(`a closing tag </${name}> that closes nothing open`);
    this.handler.close(this.localName(name));
    if (this.stack.length === 0) this.rootClosed = true;
    return gt + 1;
  }
}

/** One XML part parsed as its chunks arrive: `done` ends the text and answers what was gathered. */
export interface PartParser<T> {
  push(chunk: Buffer): void;
  done(): T;
}

export function partParser<H extends XmlHandler, T>(handler: H, result: (handler: H) => T): PartParser<T> {
  const tokens = new XmlTokenizer(handler);
  return {
    push: (chunk) => tokens.push(chunk),
    done: () => {
      tokens.end();
      return result(handler);
    },
  };
}
