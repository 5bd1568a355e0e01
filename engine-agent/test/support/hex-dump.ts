/**
 * The bytes of a hex dump as posted in an issue thread: sedutil's debug dump ("0000 000000a0
 * 00000001 …", 4-byte groups) or a 16-column dump ("0x000  00  00  00  A0 …"), each line an
 * offset, hex groups, then ASCII. Markdown quote marks and lines without an offset are skipped.
 */
export function readPostedHexDump(text: string): Uint8Array {
  const out: number[] = [];
  for (const raw of text.split('\n')) {
    const tokens = raw.replace(/^\s*>?\s*/, '').split(/\s+/);
    const offset = /^(?:0x)?([0-9a-f]{3,4})$/i.exec(tokens[0] ?? '');
    if (!offset || parseInt(offset[1]!, 16) !== out.length) continue;
    for (const t of tokens.slice(1)) {
      if (!/^(?:[0-9a-f]{2}|[0-9a-f]{8})$/i.test(t)) break;
      for (let i = 0; i < t.length; i += 2) out.push(parseInt(t.slice(i, i + 2), 16));
    }
  }
  return Uint8Array.from(out);
}
