// Test helper: a small strict XML reader (elements, attributes, text, the five entities and character references) that throws on anything not well-formed.

/** One element. */
export interface XmlElement { name: string; attrs: Record<string, string>; children: XmlElement[]; text: string }

const NAME = /^[A-Za-z_][\w.-]*/;

function decode(s: string, where: number): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & at ${where}`);
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (!(ref in named)) throw new Error(`unknown entity &${ref}; at ${where}`);
    return named[ref]!;
  });
}

/** Parses a document with one root element (an XML declaration first is allowed); throws on malformed input. */
export function parseXml(text: string): XmlElement {
  let i = 0;
  if (text.startsWith('<?xml')) {
    i = text.indexOf('?>') + 2;
    if (i < 2) throw new Error('unterminated XML declaration');
  }
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const element = (): XmlElement => {
    if (text[i] !== '<') throw new Error(`expected < at ${i}`);
    i++;
    const name = NAME.exec(text.slice(i))?.[0];
    if (!name) throw new Error(`bad element name at ${i}`);
    i += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (text.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (text[i] === '>') {
        i++;
        break;
      }
      const attr = NAME.exec(text.slice(i))?.[0];
      if (!attr) throw new Error(`bad attribute at ${i} in <${name}>`);
      i += attr.length;
      if (text[i] !== '=' || text[i + 1] !== '"') throw new Error(`attribute ${attr} without ="..." at ${i}`);
      const end = text.indexOf('"', i + 2);
      const raw = text.slice(i + 2, end);
      if (end < 0 || raw.includes('<')) throw new Error(`bad value of ${attr} at ${i}`);
      if (attr in el.attrs) throw new Error(`duplicate attribute ${attr} in <${name}>`);
      // Attribute-value normalisation: literal white space becomes a space; references keep theirs.
      el.attrs[attr] = decode(raw.replace(/[\t\n\r]/g, ' '), i);
      i = end + 1;
    }
    for (;;) {
      const lt = text.indexOf('<', i);
      if (lt < 0) throw new Error(`<${name}> not closed`);
      const raw = text.slice(i, lt);
      if (raw.includes('>') && raw.includes(']]>')) throw new Error(`]]> in text at ${i}`);
      el.text += decode(raw, i);
      i = lt;
      if (text.startsWith('</', i)) {
        const close = `</${name}>`;
        if (!text.startsWith(close, i)) throw new Error(`expected ${close} at ${i}, got ${text.slice(i, i + 30)}`);
        i += close.length;
        return el;
      }
      el.children.push(element());
    }
  };
  skipSpace();
  const root = element();
  skipSpace();
  if (i !== text.length) throw new Error(`content after the root element at ${i}`);
  // Characters XML 1.0 cannot hold.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text)) throw new Error('control character in the document');
  return root;
}
