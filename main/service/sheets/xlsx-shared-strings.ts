import type { RawCell } from './cell-value';
import { decodeEscapes } from './xlsx-text';
import { partParser, type PartParser, type XmlHandler } from './xlsx-xml-tokens';

/**
 * The shared strings of the workbook's shared strings part, each kept as the cell it makes
 * (undefined for an empty one), so a `t="s"` cell costs one array read. The text of an `<si>` is
 * every `<t>` in it, in order: a plain `<t>`, the `<t>` of each rich-text run `<r>`, or both (some
 * writers put a plain text before the runs). Whitespace between elements is not text; the text
 * inside a `<t>` is kept exactly. The phonetic reading in `<rPh>` (Japanese furigana) is not part
 * of the text. `_xHHHH_` escapes are decoded (xlsx-text.ts).
 */
/** The common string, one plain `<t>` with nothing to unescape or refuse, taken whole. */
// eslint-disable-next-line no-control-regex -- texts holding characters XML forbids are left to the tokenizer
const PLAIN_STRING = /<si><t(?: xml:space="preserve")?>([^<&\x00-\x08\x0B-\x1F\uFFFE\uFFFF]*)<\/t><\/si>/y;

class SharedStringsHandler implements XmlHandler {
  readonly strings: (RawCell | undefined)[] = [];
  wantsText = false;
  private gathered = '';
  private inString = false;
  private phonetic = 0;

  open(name: string): void {
    switch (name) {
      case 'si':
        this.inString = true;
        this.gathered = '';
        break;
      case 't':
        this.wantsText = this.inString && this.phonetic === 0;
        break;
      case 'rPh':
        this.phonetic += 1;
        break;
      default:
        break;
    }
  }

  close(name: string): void {
    switch (name) {
      case 't':
        this.wantsText = false;
        break;
      case 'rPh':
        if (this.phonetic > 0) this.phonetic -= 1;
        break;
      case 'si': {
        const text = decodeEscapes(this.gathered);
        this.strings.push(text ? { kind: 'text', text } : undefined);
        this.gathered = '';
        this.inString = false;
        this.wantsText = false;
        break;
      }
      default:
        break;
    }
  }

  shortcut(source: string, at: number): number {
    if (this.inString || source.charCodeAt(at + 1) !== 115 || source.charCodeAt(at + 2) !== 105) return -1;
    PLAIN_STRING.lastIndex = at;
    const match = PLAIN_STRING.exec(source);
    if (!match) return -1;
    const text = decodeEscapes(match[1]);
    this.strings.push(text ? { kind: 'text', text } : undefined);
    return PLAIN_STRING.lastIndex;
  }

  text(text: string): void {
    this.gathered += text;
  }
}

export function sharedStringsParser(): PartParser<(RawCell | undefined)[]> {
  return partParser(new SharedStringsHandler(), (handler) => handler.strings);
}
