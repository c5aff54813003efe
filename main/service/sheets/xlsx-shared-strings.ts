import type { RawCell } from './cell-value';
import { partParser, type PartParser, type XmlHandler } from './xlsx-xml-tokens';

/**
 * The shared strings of `xl/sharedStrings.xml`, each kept as the cell it makes (undefined for an
 * empty one), so a `t="s"` cell costs one array read. The text of an `<si>` is exceljs's: its
 * runs joined when it has `<r>` runs, else the text from its last `<t>` to its end (so a string
 * written with indentation keeps the line break after its `<t>`, as exceljs keeps it). One
 * deliberate difference: the phonetic reading in `<rPh>` (Japanese furigana) is not taken for
 * the text, where exceljs would replace a plain string with its reading.
 */
/** The common string, one plain `<t>` with nothing to unescape or refuse, taken whole. */
// eslint-disable-next-line no-control-regex -- texts holding characters XML forbids are left to the tokenizer
const PLAIN_STRING = /<si><t(?: xml:space="preserve")?>([^<&\x00-\x08\x0B-\x1F\uFFFE\uFFFF]*)<\/t><\/si>/y;

class SharedStringsHandler implements XmlHandler {
  readonly strings: (RawCell | undefined)[] = [];
  wantsText = false;
  private held: string | null = null;
  private runs: (string | null)[] = [];
  private inString = false;
  private phonetic = 0;

  open(name: string): void {
    switch (name) {
      case 'si':
        this.inString = true;
        this.runs = [];
        this.held = null;
        break;
      case 't':
        if (this.phonetic === 0) this.held = null;
        break;
      case 'rPh':
        this.phonetic += 1;
        break;
      default:
        break;
    }
    this.wantsText = this.inString && this.phonetic === 0;
  }

  close(name: string): void {
    switch (name) {
      case 'r':
        if (this.phonetic === 0) this.runs.push(this.held);
        this.held = null;
        break;
      case 'rPh':
        this.phonetic -= 1;
        break;
      case 'si': {
        const text = this.runs.length > 0 ? this.runs.map((run) => run ?? '').join('') : this.held;
        this.strings.push(text ? { kind: 'text', text } : undefined);
        this.runs = [];
        this.held = null;
        this.inString = false;
        break;
      }
      default:
        break;
    }
    this.wantsText = this.inString && this.phonetic === 0;
  }

  shortcut(source: string, at: number): number {
    if (this.inString || source.charCodeAt(at + 1) !== 115 || source.charCodeAt(at + 2) !== 105) return -1;
    PLAIN_STRING.lastIndex = at;
    const match = PLAIN_STRING.exec(source);
    if (!match) return -1;
    this.strings.push(match[1] ? { kind: 'text', text: match[1] } : undefined);
    return PLAIN_STRING.lastIndex;
  }

  text(text: string): void {
    // An empty text is no text: exceljs starts over with the next piece.
    this.held = this.held ? this.held + text : text;
  }
}

export function sharedStringsParser(): PartParser<(RawCell | undefined)[]> {
  return partParser(new SharedStringsHandler(), (handler) => handler.strings);
}
