import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { xrefInconsistency } from './xref-consistency.js';

const DUPLICATE = /defines an object more than once/;

async function simplePdf(text: string, options: { useObjectStreams: boolean } = { useObjectStreams: false }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 14, font });
  return doc.save(options);
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The number of page 1's content stream, and its operators. */
async function contents(pdf: Uint8Array): Promise<{ num: number; ops: string }> {
  const doc = await PDFDocument.load(pdf);
  const ref = doc.getPage(0).node.lookup(PDFName.of('Contents'), PDFArray).get(0) as PDFRef;
  return { num: ref.objectNumber, ops: latin1(decodePDFRawStream(doc.context.lookup(ref, PDFRawStream)).decode()) };
}

/**
 * `pdf` with object `num` defined a second time right after the header as `body`; the
 * cross-reference table points at that new definition when `pointAtFirst`, else at the old one.
 */
function defineTwice(pdf: Uint8Array, num: number, body: string, pointAtFirst: boolean): Uint8Array {
  const s = latin1(pdf);
  const object = `${num} 0 obj\n${body}\nendobj\n`;
  const at = s.indexOf('\n', s.indexOf('\n') + 1) + 1;
  const out = s.slice(0, at) + object + s.slice(at);
  const xrefAt = out.lastIndexOf('\nxref\n') + 1;
  let index = -1;
  const table = out.slice(xrefAt).replace(/^(\d{10}) (\d{5}) ([nf])/gm, (line, offset: string, gen: string, kind: string) => {
    index++;
    if (kind !== 'n') return line;
    const moved = index === num && pointAtFirst ? at : Number(offset) + object.length;
    return `${String(moved).padStart(10, '0')} ${gen} ${kind}`;
  });
  return Buffer.from(out.slice(0, xrefAt) + table.replace(/startxref\n\d+/, `startxref\n${xrefAt}`), 'latin1');
}

/** `pdf` with an incremental update that redefines its catalog (same number), as a signing tool does. */
async function withIncrementalUpdate(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  const root = doc.context.trailerInfo.Root as PDFRef;
  doc.catalog.set(PDFName.of('Lang'), PDFName.of('en'));
  const s = latin1(pdf);
  const prev = Number(/startxref\s+(\d+)\s*%%EOF\s*$/.exec(s)![1]);
  const objectAt = s.length + 1; // after the newline that ends %%EOF
  const object = `\n${root.objectNumber} 0 obj\n${doc.catalog.toString()}\nendobj\n`;
  const xrefAt = s.length + object.length;
  const size = doc.context.largestObjectNumber + 1;
  const update =
    `${object}xref\n0 1\n0000000000 65535 f \n${root.objectNumber} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n` +
    `trailer\n<<\n/Size ${size}\n/Root ${root.toString()}\n/Prev ${prev}\n>>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(s + update, 'latin1');
}

describe('xrefInconsistency: pdf-lib must read the objects the cross-reference table points at', () => {
  it('accepts a file pdf-lib saved without object streams, and one with an incremental update redefining its catalog', async () => {
    const pdf = await simplePdf('GENUINE SERIAL');
    expect(await xrefInconsistency(pdf)).toBeNull();
    const updated = await withIncrementalUpdate(pdf);
    expect((await PDFDocument.load(updated)).catalog.get(PDFName.of('Lang'))).toBe(PDFName.of('en'));
    expect(await xrefInconsistency(updated)).toBeNull();
  });

  it('refuses a content stream defined twice, the table pointing at the first (forged) one that readers show', async () => {
    const pdf = await simplePdf('GENUINE SERIAL');
    const { num, ops } = await contents(pdf);
    const forgedOps = ops.replace(/<[0-9A-F]+> Tj/, '(FORGED SERIAL) Tj');
    const forged = defineTwice(pdf, num, `<< /Length ${forgedOps.length} >>\nstream\n${forgedOps}\nendstream`, true);
    // What pdf-lib alone sees: the genuine page, defined last.
    expect((await contents(forged)).ops).toBe(ops);
    expect(await xrefInconsistency(forged)).toMatch(DUPLICATE);
  });

  it('refuses an object defined twice in one revision even when the table points at the last definition', async () => {
    const pdf = await simplePdf('GENUINE SERIAL');
    const { num } = await contents(pdf);
    expect(await xrefInconsistency(defineTwice(pdf, num, '<< /Length 0 >>\nstream\n\nendstream', false))).toMatch(DUPLICATE);
  });

  it('refuses object streams and cross-reference streams, which certificates never use, and what is not a PDF', async () => {
    expect(await xrefInconsistency(await simplePdf('X', { useObjectStreams: true }))).not.toBeNull();
    expect(await xrefInconsistency(new TextEncoder().encode('not a pdf'))).not.toBeNull();
    const pdf = latin1(await simplePdf('X'));
    const broken = pdf.replace(/startxref\n\d+/, 'startxref\n12');
    expect(await xrefInconsistency(Buffer.from(broken, 'latin1'))).not.toBeNull();
  });
});
